import { LocationProvider, Route, Router } from 'preact-iso';
import { useMemo, useState } from 'preact/hooks';
import { ApiContext, createClient, storedKey, type Api } from './api';
import { KeyPrompt } from './components/KeyPrompt';
import { Layout } from './components/Layout';
import { Conversation } from './screens/Conversation';
import { Graph } from './screens/Graph';
import { Memories } from './screens/Memories';
import { MemoryDetail } from './screens/MemoryDetail';
import { NotFound } from './screens/NotFound';
import { Recall } from './screens/Recall';
import { Workspaces } from './screens/Workspaces';

/** The explorer: the API client (with the tab's key), the routes under /ui, and the key prompt. */
export function App() {
  const [key, setKey] = useState(storedKey.get());
  const [asking, setAsking] = useState(false);
  const api = useMemo<Api>(() => {
    const memd = createClient(key);
    return { memd, in: (workspaceId) => memd.withWorkspace(workspaceId), unauthorized: () => setAsking(true) };
  }, [key]);

  return (
    <ApiContext.Provider value={api}>
      <LocationProvider scope="/ui">
        {/* A new key remounts the screens, so that each loads again with it. */}
        <Layout key={key ?? ''}>
          <Router>
            <Route path="/ui" component={Workspaces} />
            <Route path="/ui/" component={Workspaces} />
            <Route path="/ui/workspaces" component={Workspaces} />
            <Route path="/ui/w/:ws/memories" component={Memories} />
            <Route path="/ui/w/:ws/memories/:id" component={MemoryDetail} />
            <Route path="/ui/w/:ws/recall" component={Recall} />
            <Route path="/ui/w/:ws/graph" component={Graph} />
            <Route path="/ui/w/:ws/conversation/:tab?" component={Conversation} />
            <Route default component={NotFound} />
          </Router>
        </Layout>
        <KeyPrompt
          open={asking}
          rejected={key !== undefined}
          onKey={(next) => {
            storedKey.set(next);
            setKey(next);
            setAsking(false);
          }}
        />
      </LocationProvider>
    </ApiContext.Provider>
  );
}
