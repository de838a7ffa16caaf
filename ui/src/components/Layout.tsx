import { createContext, type ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useContext, useEffect, useState } from 'preact/hooks';
import { storedKey, useApi } from '../api';
import { useLoad, type Loaded } from '../hooks';
import { applyTheme, nextTheme, savedTheme, type ThemeChoice } from '../theme';
import type { Workspace } from '../types';

const WorkspacesContext = createContext<Loaded<Workspace[]> | null>(null);

/** The workspaces the key may see, shared by the picker and the workspaces screen (which reloads it). */
export function useWorkspaces(): Loaded<Workspace[]> {
  const loaded = useContext(WorkspacesContext);
  if (!loaded) throw new Error('useWorkspaces outside Layout');
  return loaded;
}

const LAST_WORKSPACE = 'memd.workspace';
const SCREENS = [
  ['memories', 'Memories'],
  ['recall', 'Recall'],
  ['graph', 'Graph'],
  ['conversation', 'Conversation'],
] as const;

/** The workspace and screen the path names: /ui/w/<workspace>/<screen>/… */
function placeOf(path: string): { workspace: string | undefined; screen: string | undefined } {
  const match = /^\/ui\/w\/([^/]+)\/([^/]+)/.exec(path);
  return match
    ? { workspace: decodeURIComponent(match[1]!), screen: match[2] }
    : { workspace: undefined, screen: undefined };
}

export const workspacePath = (workspace: string, screen: string) => `/ui/w/${encodeURIComponent(workspace)}/${screen}`;

/** The page's frame: brand, workspace picker, the screens of the workspace, theme toggle. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { memd } = useApi();
  const location = useLocation();
  const workspaces = useLoad(async (signal) => (await memd.workspaces.list({ signal })).workspaces, []);
  const here = placeOf(location.path);
  const [theme, setTheme] = useState<ThemeChoice>(savedTheme());
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    if (here.workspace) localStorage.setItem(LAST_WORKSPACE, here.workspace);
  }, [here.workspace]);
  const workspace = here.workspace ?? localStorage.getItem(LAST_WORKSPACE) ?? workspaces.data?.[0]?.id ?? '_default';
  const known = workspaces.data ?? [];

  return (
    <WorkspacesContext.Provider value={workspaces}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/ui/">
          memd <span>explorer</span>
        </a>
        <nav aria-label="Screens">
          <a
            href="/ui/workspaces"
            aria-current={
              location.path === '/ui/workspaces' || location.path === '/ui/' || location.path === '/ui'
                ? 'page'
                : undefined
            }
          >
            Workspaces
          </a>
          {SCREENS.map(([screen, name]) => (
            <a
              key={screen}
              href={workspacePath(workspace, screen)}
              aria-current={here.screen === screen ? 'page' : undefined}
            >
              {name}
            </a>
          ))}
        </nav>
        <label class="picker">
          <span class="sr-only">Workspace</span>
          <select
            value={workspace}
            onChange={(event) => location.route(workspacePath(event.currentTarget.value, here.screen ?? 'memories'))}
            aria-label="Workspace"
          >
            {!known.some((w) => w.id === workspace) && <option value={workspace}>{workspace}</option>}
            {known.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name === w.id ? w.id : `${w.name} (${w.id})`}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="ghost"
          onClick={() => setTheme(nextTheme(theme))}
          aria-label={`Theme: ${theme}. Change theme`}
          title="Change theme"
        >
          {theme === 'dark' ? '☾ dark' : theme === 'light' ? '☀ light' : '◐ system'}
        </button>
        {storedKey.get() && (
          <button
            type="button"
            class="ghost"
            onClick={() => {
              storedKey.clear();
              location.route('/ui/');
              window.location.reload();
            }}
          >
            Forget key
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </WorkspacesContext.Provider>
  );
}
