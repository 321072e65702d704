//! Building the web app for a base path: Trunk (offline, with the installed wasm-bindgen and npm's
//! wasm-opt) writes the app under that base, then [`finish`] makes the folder work on any static
//! host:
//!
//! - the runtime's worker is named after its content (Trunk names workers plainly), so that every
//!   file but the HTML pages can be cached for a year;
//! - `index.html` gets the Content-Security-Policy as a meta element, and the build fails if an
//!   inline script slipped in (the policy forbids them);
//! - every route the course has gets its own `index.html` (`lesson/<slug>/index.html`,
//!   `devices/index.html`), so that a deep link reloads on hosts without rewrites, and `404.html`
//!   is the app too, for routes the build did not know (GitHub Pages, Netlify and S3 serve it);
//! - `_headers` (Netlify, Cloudflare Pages) and `.nojekyll` (GitHub Pages) come along.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::headers;
use crate::process::run_checked;

/// The path a site is served under: `/`, or `/courses/ml/` (always with both slashes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base(String);

impl Base {
    /// The root of a host.
    pub fn root() -> Self {
        Self("/".into())
    }

    /// Reads `--base`: a path of plain segments, given with or without its slashes (`courses/ml`
    /// means `/courses/ml/`). A full URL, `..`, a query or characters a URL would escape are
    /// refused, with what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let segments: Vec<&str> = text.split('/').filter(|s| !s.is_empty()).collect();
        if text.contains("://") || text.starts_with("//") {
            return Err(format!(
                "--base takes a path such as /courses/ml/, not a URL: `{text}`"
            ));
        }
        for segment in &segments {
            if *segment == "." || *segment == ".." {
                return Err(format!(
                    "--base `{text}`: `{segment}` is not allowed in a base path"
                ));
            }
            if let Some(bad) = segment
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || "-._~".contains(*c)))
            {
                return Err(format!(
                    "--base `{text}`: `{bad}` is not allowed (letters, digits and - . _ ~ only, between slashes)"
                ));
            }
        }
        if segments.is_empty() {
            return Ok(Self::root());
        }
        Ok(Self(format!("/{}/", segments.join("/"))))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The folder a site for this base is written to when none is given: `target/site` for `/`,
    /// `target/site-courses-ml` for `/courses/ml/`.
    pub fn default_dist(&self, root: &Path) -> PathBuf {
        let name = self.0.trim_matches('/').replace('/', "-");
        if name.is_empty() {
            root.join("target/site")
        } else {
            root.join(format!("target/site-{name}"))
        }
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Builds the site (release) for `base` into its folder under `target/` ([`Base::default_dist`];
/// Trunk empties the folder it builds into) and returns the folder.
pub fn build(root: &Path, base: &Base) -> Result<PathBuf, String> {
    let dist = base.default_dist(root);
    let mut cmd = Command::new("trunk");
    cmd.args([
        "build",
        "--release",
        "--public-url",
        base.as_str(),
        "--dist",
    ])
    .arg(&dist)
    .env("PATH", path_with_node_tools(root));
    // Trunk reads NO_COLOR as a boolean and rejects the common `NO_COLOR=1`.
    cmd.env_remove("NO_COLOR");
    run_checked(cmd, root)?;
    let routes = course_routes()?;
    finish(&dist, base, &routes)?;
    Ok(dist)
}

/// Copies the built `site` into `out` (`cargo xtask site --out`), the folder a host serves:
/// the lab's files are replaced, anything else there is kept (an `.htaccess`, another course's
/// folder, the content-named files of the build before, which pages still open may ask for). A
/// page there that is not the lab's is not overwritten: the copy stops before it writes anything.
pub fn copy_into(site: &Path, out: &Path) -> Result<(), String> {
    let files = files_under(site)?;
    for file in &files {
        let target = out.join(file);
        let ours = |text: &str| text.contains(r#"<meta name="tolab-app""#);
        if file.ends_with(".html")
            && let Ok(existing) = fs::read_to_string(&target)
            && !ours(&existing)
        {
            return Err(format!(
                "{} exists and is not a page of the lab: choose an empty folder, or one that holds a \
                 build of the lab, for --out",
                target.display()
            ));
        }
    }
    for file in &files {
        let target = out.join(file);
        if let Some(folder) = target.parent() {
            fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        fs::copy(site.join(file), &target)
            .map_err(|e| format!("cannot copy to {}: {e}", target.display()))?;
    }
    Ok(())
}

/// Every route of the course, relative to the base, that is not the home page.
fn course_routes() -> Result<Vec<String>, String> {
    let catalog = tolab_lessons::default_catalog().map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the lessons do not parse:\n{}", list.join("\n"))
    })?;
    let mut routes = vec!["devices".to_owned()];
    routes.extend(
        catalog
            .lessons()
            .iter()
            .map(|l| format!("lesson/{}", l.meta.slug)),
    );
    Ok(routes)
}

/// Turns Trunk's output in `dist` into a site for any static host (see the module's doc).
pub fn finish(dist: &Path, base: &Base, routes: &[String]) -> Result<(), String> {
    let worker = name_worker_after_content(dist)?;
    let index_path = dist.join("index.html");
    let index = read(&index_path)?;
    let index = finish_index(&index, &worker)?;
    write(&index_path, &index)?;
    write(&dist.join("404.html"), &index)?;
    for route in routes {
        let folder = dist.join(route);
        fs::create_dir_all(&folder)
            .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        write(&folder.join("index.html"), &index)?;
    }
    write(&dist.join(".nojekyll"), "")?;
    let files = files_under(dist)?;
    write(
        &dist.join("_headers"),
        &headers::headers_file(base.as_str(), &files),
    )?;
    Ok(())
}

/// The worker's script, `tolab-worker-<hash>.js`: wasm-bindgen's loader and the call that
/// starts it with `tolab-worker-<hash>_bg.wasm` (a relative address resolves against the
/// worker's own, under any base). Returns the script's name.
fn name_worker_after_content(dist: &Path) -> Result<String, String> {
    let plain_js = dist.join("tolab-worker.js");
    let plain_wasm = dist.join("tolab-worker_bg.wasm");
    let wasm =
        fs::read(&plain_wasm).map_err(|e| format!("cannot read {}: {e}", plain_wasm.display()))?;
    let wasm_name = format!("tolab-worker-{}_bg.wasm", content_hash(&wasm));
    let script = format!(
        "{}\nwasm_bindgen({{ module_or_path: \"./{wasm_name}\" }});\n",
        read(&plain_js)?
    );
    let script_name = format!("tolab-worker-{}.js", content_hash(script.as_bytes()));
    rename(&plain_wasm, &dist.join(&wasm_name))?;
    write(&dist.join(&script_name), &script)?;
    fs::remove_file(&plain_js).map_err(|e| format!("cannot remove {}: {e}", plain_js.display()))?;
    Ok(script_name)
}

/// `index.html` with the worker's name filled in and the policy as its first meta element after
/// the charset (a policy applies only to what follows it). Fails on an inline script.
fn finish_index(index: &str, worker: &str) -> Result<String, String> {
    const WORKER_PLACEHOLDER: &str = r#"<meta name="tolab-worker" content="tolab-worker.js" />"#;
    const CHARSET: &str = r#"<meta charset="utf-8" />"#;
    if !index.contains(WORKER_PLACEHOLDER) || !index.contains(CHARSET) {
        return Err(format!(
            "index.html lacks `{WORKER_PLACEHOLDER}` or `{CHARSET}`, which the site build fills in"
        ));
    }
    if let Some(inline) = inline_script(index) {
        return Err(format!(
            "index.html has an inline script, which the lab's Content-Security-Policy forbids \
             (move it into a file under app/js/): {inline}"
        ));
    }
    let policy = format!(
        "{CHARSET}\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{}\" />",
        headers::CONTENT_SECURITY_POLICY
    );
    Ok(index.replacen(CHARSET, &policy, 1).replace(
        WORKER_PLACEHOLDER,
        &format!(r#"<meta name="tolab-worker" content="{worker}" />"#),
    ))
}

/// The start of the first `<script>` element without a `src`, if any.
fn inline_script(html: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find("<script") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e + 1);
        let tag = &rest[at..tag_end];
        if !tag.contains(" src=") {
            return Some(rest[at..].chars().take(80).collect());
        }
        rest = &rest[tag_end..];
    }
    None
}

/// 64-bit FNV-1a of `bytes` as 16 hexadecimal digits: a name that changes with the content.
fn content_hash(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Every file under `dir`, relative to it, with `/`, sorted.
fn files_under(dir: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("cannot list {}: {e}", folder.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push(parts.join("/"));
            }
        }
    }
    files.sort();
    Ok(files)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn rename(from: &Path, to: &Path) -> Result<(), String> {
    fs::rename(from, to).map_err(|e| format!("cannot rename {}: {e}", from.display()))
}

/// PATH with `node_modules/.bin` first, where npm put binaryen's `wasm-opt`.
pub fn path_with_node_tools(root: &Path) -> String {
    let bin = root.join("node_modules/.bin");
    match std::env::var("PATH") {
        Ok(path) if !path.is_empty() => format!("{}:{path}", bin.display()),
        _ => bin.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_is_a_path_with_both_slashes() {
        assert_eq!(Base::parse("/").unwrap(), Base::root());
        assert_eq!(Base::parse("").unwrap(), Base::root());
        assert_eq!(
            Base::parse("/courses/ml/").unwrap().as_str(),
            "/courses/ml/"
        );
        assert_eq!(Base::parse("courses/ml").unwrap().as_str(), "/courses/ml/");
        assert_eq!(
            Base::parse("/~teacher//ml").unwrap().as_str(),
            "/~teacher/ml/"
        );
        assert_eq!(
            Base::parse("/courses/ml/")
                .unwrap()
                .default_dist(Path::new("r")),
            Path::new("r/target/site-courses-ml")
        );
        assert_eq!(
            Base::root().default_dist(Path::new("r")),
            Path::new("r/target/site")
        );
    }

    #[test]
    fn a_base_that_is_not_a_plain_path_is_refused_with_why() {
        for (text, says) in [
            ("https://x.github.io/repo/", "not a URL"),
            ("//cdn.example/x", "not a URL"),
            ("/courses/../etc/", "`..` is not allowed"),
            ("/a b/", "` ` is not allowed"),
            ("/ml?x=1", "`?` is not allowed"),
            ("/ml#top", "`#` is not allowed"),
        ] {
            let error = Base::parse(text).unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
        }
    }

    const INDEX: &str = r#"<html><head><meta charset="utf-8" /><meta name="tolab-worker" content="tolab-worker.js" /><script src="/b-0123456789abcdef.js"></script></head><body></body></html>"#;

    #[test]
    fn the_index_gets_the_policy_first_and_the_worker_by_its_content_name() {
        let done = finish_index(INDEX, "tolab-worker-00000000000000aa.js").unwrap();
        let policy = done.find("Content-Security-Policy").unwrap();
        assert!(policy < done.find("<script").unwrap());
        assert!(done.contains(r#"content="tolab-worker-00000000000000aa.js""#));
    }

    #[test]
    fn an_inline_script_fails_the_build() {
        let inline = INDEX.replace("</head>", "<script>alert(1)</script></head>");
        let error = finish_index(&inline, "w.js").unwrap_err();
        assert!(error.contains("inline script"), "{error}");
        assert!(finish_index("<html></html>", "w.js").is_err());
    }

    #[test]
    fn copying_out_keeps_what_is_not_the_labs_and_refuses_to_overwrite_another_page() {
        let dir = std::env::temp_dir().join(format!("tolab-copy-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let (site, out) = (dir.join("site"), dir.join("out"));
        fs::create_dir_all(site.join("lesson/a")).unwrap();
        fs::create_dir_all(&out).unwrap();
        let page = r#"<meta name="tolab-app" data-js="/a.js" />"#;
        fs::write(site.join("index.html"), page).unwrap();
        fs::write(site.join("lesson/a/index.html"), page).unwrap();
        fs::write(out.join(".htaccess"), "ErrorDocument 404 /404.html").unwrap();
        fs::write(
            out.join("index.html"),
            "<p>old build</p><meta name=\"tolab-app\" />",
        )
        .unwrap();
        copy_into(&site, &out).unwrap();
        assert_eq!(
            fs::read_to_string(out.join("lesson/a/index.html")).unwrap(),
            page
        );
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), page);
        assert!(out.join(".htaccess").is_file());

        let elsewhere = dir.join("homepage");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("index.html"), "<h1>My home page</h1>").unwrap();
        let error = copy_into(&site, &elsewhere).unwrap_err();
        assert!(error.contains("is not a page of the lab"), "{error}");
        assert!(!elsewhere.join("lesson").exists(), "nothing was written");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn finishing_writes_every_route_the_worker_and_the_headers() {
        let dist = std::env::temp_dir().join(format!("tolab-site-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dist);
        fs::create_dir_all(&dist).unwrap();
        fs::write(dist.join("index.html"), INDEX).unwrap();
        fs::write(dist.join("tolab-worker.js"), "let wasm_bindgen;").unwrap();
        fs::write(dist.join("tolab-worker_bg.wasm"), b"\0asm").unwrap();
        let base = Base::parse("/courses/ml/").unwrap();
        finish(&dist, &base, &["devices".into(), "lesson/a".into()]).unwrap();
        let files = files_under(&dist).unwrap();
        let worker = files
            .iter()
            .find(|f| f.starts_with("tolab-worker-") && f.ends_with(".js"))
            .unwrap();
        assert!(headers::is_content_named(worker));
        let script = fs::read_to_string(dist.join(worker)).unwrap();
        let wasm = files.iter().find(|f| f.ends_with("_bg.wasm")).unwrap();
        assert!(script.ends_with(&format!("module_or_path: \"./{wasm}\" }});\n")));
        for page in ["404.html", "devices/index.html", "lesson/a/index.html"] {
            let text = fs::read_to_string(dist.join(page)).unwrap();
            assert!(text.contains(worker.as_str()), "{page}");
        }
        assert!(!files.contains(&"tolab-worker.js".to_owned()));
        let headers = fs::read_to_string(dist.join("_headers")).unwrap();
        assert!(headers.contains(&format!("/courses/ml/{worker}\n")));
        assert!(files.contains(&".nojekyll".to_owned()));
        fs::remove_dir_all(&dist).unwrap();
    }

    #[test]
    fn the_pages_workflow_publishes_the_folder_it_builds() {
        let root = crate::repo_root();
        let workflow = std::fs::read_to_string(root.join("docs/deploy/github-pages.yml")).unwrap();
        assert!(workflow.contains(
            "run: cargo xtask site --base \"/${{ github.event.repository.name }}/\" --out _site"
        ));
        assert!(workflow.contains(
            "uses: actions/upload-pages-artifact@v3\n        with:\n          path: _site"
        ));
        assert!(workflow.contains("uses: actions/deploy-pages@v4"));
    }
}
