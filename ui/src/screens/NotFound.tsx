/** A path under /ui that names no screen. */
export function NotFound() {
  return (
    <section>
      <h1>Nothing here</h1>
      <p>
        This address names no screen. <a href="/ui/workspaces">See the workspaces</a>.
      </p>
    </section>
  );
}
