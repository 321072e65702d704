// The page's first script, and its only one besides the editor's bundle: the lab runs under a
// Content-Security-Policy without inline scripts (docs/HOSTING.md). It
//  1. finds the site's base path (where it is hosted: `/`, `/courses/ml/`), from its own address,
//     which Trunk wrote under the base the site was built for (`cargo xtask site --base`);
//  2. sets the theme before the app draws, so that a light page never flashes dark;
//  3. starts the runtime's worker now, so that its module downloads and compiles while the app's
//     own does; the app adopts it (app/src/runtime_client.rs) with the messages it sent meanwhile,
//     and calls tolabStartRuntime again to replace a worker that died or stopped answering;
//  4. loads the app's module, named by the `tolab-app` meta element (Trunk.toml's pattern_script),
//     and starts it once the body is parsed.
// A page whose files do not load keeps the notice in index.html's body, which says why.
(() => {
  const base = new URL("./", document.currentScript.src).pathname;
  window.tolabBase = base;
  const meta = (name) => document.querySelector(`meta[name="${name}"]`);
  const params = new URLSearchParams(location.search);

  // A directory's index.html (`lesson/<slug>/index.html`, for hosts without rewrites) is reached
  // as `…/lesson/<slug>/`; the app's routes have no trailing slash.
  if (location.pathname.length > base.length && location.pathname.endsWith("/")) {
    history.replaceState(history.state, "", location.pathname.replace(/\/+$/, "") + location.search + location.hash);
  }

  // Storage keys are scoped to the base (app/src/storage.rs), so that two courses on one host
  // keep their own progress.
  // An embedded lesson may be given its theme (`?embed=1&theme=light`, docs/HOSTING.md).
  const themeKey = (base === "/" ? "" : base) + "tolab:theme";
  const embedded = params.has("embed") && params.get("embed") !== "0";
  const asked = embedded && ["light", "dark"].includes(params.get("theme")) && params.get("theme");
  try {
    document.documentElement.dataset.theme =
      asked ||
      localStorage.getItem(themeKey) ||
      (matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark");
  } catch {
    document.documentElement.dataset.theme = "dark";
  }

  // `cargo xtask site` names the worker after its content and adds the call that starts it; a
  // site built by Trunk alone has neither, and its worker would never answer.
  const workerName = meta("tolab-worker").content;
  if (workerName === "tolab-worker.js") {
    console.error("this site was built by `trunk build` alone: build it with `cargo xtask site` (the runtime's worker is finished there)");
  }
  const workerUrl = base + workerName;
  window.tolabStartRuntime = () => {
    try {
      const worker = new Worker(workerUrl);
      const runtime = { worker, early: [], failed: null };
      worker.onmessage = (event) => runtime.early.push(event.data);
      worker.onerror = (event) => {
        runtime.failed = event.message || "the worker failed to load";
        event.preventDefault();
      };
      return runtime;
    } catch (error) {
      return { error: String(error) };
    }
  };
  window.tolabRuntime = window.tolabStartRuntime();

  // The module downloads now; it starts once the body it draws into exists.
  const app = meta("tolab-app");
  const parsed = new Promise((resolve) => {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve, { once: true });
    else resolve();
  });
  Promise.all([import(app.dataset.js), parsed])
    .then(([bindings]) => bindings.default({ module_or_path: app.dataset.wasm }))
    .catch((error) => {
      const notice = document.getElementById("boot-notice");
      if (notice) {
        notice.dataset.failed = "";
        notice.querySelector("[data-reason]").textContent = String(error);
      }
      console.error("the lab's module did not start:", error);
    });
})();
