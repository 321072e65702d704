//! `/lesson/<slug>`: one lesson's prose, with the course beside it; embedded (`?embed=1`,
//! [`crate::embed`]), the lesson alone or one of its exercises.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use tolab_cells::{Reply, Request};

use super::{CatalogErrors, NotFoundPage};
use crate::catalog::catalog;
use crate::runtime_client::use_runtime_client;

#[component]
pub fn LessonPage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let client = use_runtime_client();
    let prose = NodeRef::<leptos::html::Article>::new();
    let embed = crate::embed::current();
    // Each lesson's prose is rendered as HTML; its Python blocks then become cells.
    Effect::new({
        let only = embed.exercise.clone();
        move |_| {
            let lesson = params.read_untracked().get("slug").unwrap_or_default();
            let Some(article) = prose.get() else { return };
            let Some(found) = catalog().as_ref().ok().and_then(|c| c.find(&lesson)) else {
                return;
            };
            crate::progress::visit(&lesson);
            set_title(&found.meta.title);
            match &only {
                // One embedded exercise: its section alone, checked in a fresh notebook as ever.
                Some(id) => match article.query_selector(&format!("#exercise-{id}")) {
                    Ok(Some(section)) => article.replace_children_with_node_1(&section),
                    _ => return,
                },
                None => {
                    if let Err(e) = crate::cells::mount_cells(&article, found, &client) {
                        leptos::logging::error!("the lesson's cells could not be made: {e:?}");
                    }
                }
            }
            if let Err(e) = crate::exercises::mount_exercises(&article, found, &client) {
                leptos::logging::error!("the lesson's exercises could not be made: {e:?}");
            }
            crate::embed::announce(&lesson);
        }
    });

    move || {
        let catalog = match catalog() {
            Ok(catalog) => catalog,
            Err(errors) => return view! { <CatalogErrors errors=errors.clone()/> }.into_any(),
        };
        let current = slug();
        let Some(lesson) = catalog.find(&current) else {
            return view! { <NotFoundPage/> }.into_any();
        };
        if let Some(problem) = embed_problem(&embed, lesson) {
            return view! { <section class="notice error" data-testid="embed-error"><p>{problem}</p></section> }
                .into_any();
        }
        if embed.chromeless {
            let bar = embed.exercise.is_none().then(|| view! { <NotebookBar/> });
            return view! {
                <div class="lesson-main embedded" id="lesson">
                    {bar}
                    <article node_ref=prose class="prose" data-testid="lesson-prose" inner_html=lesson.prose_html()></article>
                </div>
            }
            .into_any();
        }
        let course = catalog
            .lessons()
            .iter()
            .map(|l| {
                let item_class = if l.meta.slug == current {
                    "current"
                } else {
                    ""
                };
                let slug = l.meta.slug.clone();
                let total = l.cell_count();
                let exercises = l.exercises().count();
                let done = Memo::new(move |_| crate::progress::cells_done(&slug, total));
                let slug = l.meta.slug.clone();
                let passed = Memo::new(move |_| crate::progress::exercises_done(&slug).min(exercises));
                view! {
                    <li class=item_class>
                        <A href=crate::site::href(&format!("/lesson/{}", l.meta.slug))>{l.meta.title.clone()}</A>
                        <span class="lesson-badges">
                            <span
                                class="lesson-progress"
                                class:complete={move || total > 0 && done.get() == total}
                                aria-label=move || format!("{} of {total} cells run", done.get())
                                style=move || format!("--done: {}", if total == 0 { 0.0 } else { done.get() as f64 / total as f64 })
                            >
                                {move || format!("{}/{total} cells", done.get())}
                            </span>
                            <span
                                class="exercise-progress"
                                hidden=exercises == 0
                                class:complete={move || exercises > 0 && passed.get() == exercises}
                                aria-label=move || format!("{} of {exercises} exercises done", passed.get())
                            >
                                {move || format!(
                                    "{}{}/{exercises} exercise{}",
                                    if passed.get() == exercises { "✓ " } else { "" },
                                    passed.get(),
                                    if exercises == 1 { "" } else { "s" }
                                )}
                            </span>
                        </span>
                    </li>
                }
            })
            .collect_view();
        // The lessons to read first, linked by their titles.
        let first_reads = lesson
            .meta
            .prerequisites
            .iter()
            .filter_map(|slug| catalog.find(slug))
            .enumerate()
            .map(|(i, l)| {
                view! {
                    {(i > 0).then_some(", ")}
                    <A href=crate::site::href(&format!("/lesson/{}", l.meta.slug))>{l.meta.title.clone()}</A>
                }
            })
            .collect_view();
        let lessons = catalog.lessons();
        let next = lessons
            .iter()
            .position(|l| l.meta.slug == current)
            .and_then(|i| lessons.get(i + 1))
            .map(|l| {
                view! {
                    <nav class="next-lesson" aria-label="Next lesson">
                        "Next: " <A href=crate::site::href(&format!("/lesson/{}", l.meta.slug))>{l.meta.title.clone()}</A>
                    </nav>
                }
            });
        view! {
            <div class="lesson-layout">
                <div class="lesson-main" id="lesson">
                    <p class="lesson-meta" data-testid="lesson-meta">
                        {format!("About {} minutes", lesson.meta.minutes)}
                        {(!first_reads.is_empty()).then(|| view! { " · Read first: " {first_reads} })}
                    </p>
                    <NotebookBar/>
                    <article node_ref=prose class="prose" data-testid="lesson-prose" inner_html=lesson.prose_html()></article>
                    {next}
                </div>
                <details class="course" open=true>
                    <summary>"Course"</summary>
                    <nav aria-label="Course">
                        <ol>{course}</ol>
                    </nav>
                </details>
            </div>
        }
        .into_any()
    }
}

/// The notebook's own commands, above the lesson: Run all, Restart and run all, Clear outputs,
/// and the keyboard shortcuts (also `?` outside an editor).
#[component]
fn NotebookBar() -> impl IntoView {
    let client = StoredValue::new_local(use_runtime_client());
    let help = RwSignal::new(false);
    let running = RwSignal::new(false);
    let run_all = move || {
        running.set(true);
        leptos::task::spawn_local(async move {
            crate::cells::run_range(1, crate::cells::count()).await;
            running.set(false);
        });
    };
    let restart = move || {
        let client = client.get_value();
        running.set(true);
        leptos::task::spawn_local(async move {
            if let Reply::Reset = client.send(Request::Reset).await {
                crate::cells::clear_outputs();
                crate::cells::run_range(1, crate::cells::count()).await;
            }
            running.set(false);
        });
    };
    // `?` toggles the shortcuts, unless the keyboard is in an editor or a field.
    let on_key = leptos::ev::keydown;
    let handle = window_event_listener(on_key, move |event| {
        let typing = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|e| {
                e.closest(".cm-editor, input, textarea, select")
                    .ok()
                    .flatten()
                    .is_some()
            });
        if event.key() == "?" && !typing {
            help.update(|h| *h = !*h);
        } else if event.key() == "Escape" {
            help.set(false);
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <div class="notebook-bar" role="toolbar" aria-label="Notebook">
            <button type="button" data-action="run-all" disabled=move || running.get()
                title="Run every cell of the lesson in order, stopping at an error the lesson does not show"
                on:click=move |_| run_all()>"Run all"</button>
            <button type="button" data-action="restart-run-all" disabled=move || running.get()
                title="Forget every variable, then run every cell in order"
                on:click=move |_| restart()>"Restart and run all"</button>
            <button type="button" data-action="clear-outputs"
                title="Clear every cell's output (the variables stay)"
                on:click=move |_| crate::cells::clear_outputs()>"Clear outputs"</button>
            <button type="button" data-action="shortcuts" aria-expanded=move || help.get().to_string()
                title="Keyboard shortcuts (?)"
                on:click=move |_| help.update(|h| *h = !*h)>"Shortcuts ?"</button>
        </div>
        <section class="shortcuts" data-testid="shortcuts" hidden=move || !help.get() aria-label="Keyboard shortcuts">
            <h2>"Keyboard shortcuts"</h2>
            <dl>
                <dt><kbd>"Shift"</kbd>"+"<kbd>"Enter"</kbd></dt><dd>"Run the cell and move to the next one (Check, in an exercise)"</dd>
                <dt><kbd>"Ctrl"</kbd>"/"<kbd>"⌘"</kbd>"+"<kbd>"Enter"</kbd></dt><dd>"Run the cell and stay in it"</dd>
                <dt><kbd>"Tab"</kbd>" / "<kbd>"Shift"</kbd>"+"<kbd>"Tab"</kbd></dt><dd>"Indent / dedent by four spaces"</dd>
                <dt><kbd>"Esc"</kbd>" then "<kbd>"Tab"</kbd></dt><dd>"Leave the editor with the keyboard"</dd>
                <dt><kbd>"Ctrl"</kbd>"+"<kbd>"Z"</kbd></dt><dd>"Undo an edit"</dd>
                <dt><kbd>"?"</kbd></dt><dd>"Show or hide these shortcuts (outside an editor)"</dd>
                <dt>"←"" / ""→"</dt><dd>"Move between the tabs of what happened inside"</dd>
            </dl>
        </section>
    }
}

/// What is wrong with an embed's address, said to the instructor who wrote it.
fn embed_problem(embed: &crate::embed::Embed, lesson: &tolab_lessons::Lesson) -> Option<String> {
    if let Some(parent) = &embed.bad_parent {
        return Some(format!(
            "parent={parent} is not an origin (such as https://lms.example.edu): no message would reach the page around this one."
        ));
    }
    let id = embed.exercise.as_ref()?;
    if lesson.exercises().any(|e| &e.id == id) {
        return None;
    }
    let ids: Vec<&str> = lesson.exercises().map(|e| e.id.as_str()).collect();
    Some(if ids.is_empty() {
        format!(
            "exercise={id}: the lesson “{}” has no exercises.",
            lesson.meta.title
        )
    } else {
        format!(
            "exercise={id}: the lesson “{}” has no such exercise; its exercises are {}.",
            lesson.meta.title,
            ids.join(", ")
        )
    })
}

/// Names the browser tab after the lesson.
fn set_title(lesson: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(&format!("{lesson} · to(device) lab"));
    }
}
