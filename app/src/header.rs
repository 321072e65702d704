//! The top bar: the lab's name, navigation, and what backs the GPU devices on this page.

use leptos::prelude::*;
use leptos_router::components::A;
use tolab_cells::{BackendReport, Reply, Request};

use crate::runtime_client::use_runtime_client;

#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="site-header">
            <A href=crate::site::href("/") attr:class="brand">
                <span class="brand-mark">"→"</span>
                <span class="brand-name">"to(device) lab"</span>
            </A>
            <nav class="site-nav">
                <A href=crate::site::href("/")>"Lessons"</A>
                <A href=crate::site::href("/devices")>"Devices"</A>
            </nav>
            <BackendBadge/>
            <ThemeToggle/>
        </header>
    }
}

/// Asks the runtime which backend the GPU devices have and shows it: the WebGPU adapter's
/// vendor and architecture, or plainly that the CPU stands in.
#[component]
fn BackendBadge() -> impl IntoView {
    let (backend, set_backend) = signal(None::<Result<BackendReport, String>>);
    let client = use_runtime_client();
    leptos::task::spawn_local(async move {
        let answer = match client.send(Request::DescribeBackend).await {
            Reply::Backend(report) => Ok(report),
            Reply::Unavailable { reason } => Err(reason),
            other => Err(format!("unexpected reply from the runtime: {other:?}")),
        };
        if let Ok(BackendReport::Gpu { adapter }) = &answer
            && adapter.is_software()
        {
            SOFTWARE_GPU.set(Some(adapter.summary()));
        }
        set_backend.set(Some(answer));
    });

    move || match backend.get() {
        Some(Err(reason)) => view! {
            <div class="backend-badge error" data-testid="backend" data-state="error" title=reason>
                <span class="dot"></span>"The lab's runtime did not start"
            </div>
        }
        .into_any(),
        None => view! {
            <div class="backend-badge probing" data-testid="backend" data-state="probing">
                <span class="dot"></span>"Looking for a GPU…"
            </div>
        }
        .into_any(),
        Some(Ok(report)) => {
            let software =
                matches!(&report, BackendReport::Gpu { adapter } if adapter.is_software());
            let (state, title) = match &report {
                BackendReport::Gpu { adapter } => (
                    "gpu",
                    format!(
                        "cuda:N and mps tensors run on this adapter{}. shader-f16: {}; float64: {}; largest storage binding: {} MiB",
                        if software {
                            ", a GPU emulated on the CPU: its kernels are real but slower than the cpu device, so cuda can take longer than cpu here"
                        } else {
                            ""
                        },
                        yes_no(adapter.shader_f16),
                        yes_no(adapter.shader_f64),
                        adapter.max_storage_buffer_binding_size >> 20
                    ),
                ),
                BackendReport::CpuEmulated { .. } => (
                    "cpu",
                    "cuda:N and mps tensors run on the CPU backend on this page, and the lab marks every result that way."
                        .to_owned(),
                ),
            };
            view! {
                <div class=format!("backend-badge {state}") class:software=software data-testid="backend" data-state=state data-software=software.to_string() title=title>
                    <span class="dot"></span>
                    {report.headline()}
                    {software.then_some(" · emulated on the CPU")}
                </div>
            }
            .into_any()
        }
    }
}

thread_local! {
    /// The adapter behind the GPU devices, when it is one emulated on the CPU.
    static SOFTWARE_GPU: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The adapter's name when the GPU devices run on a GPU emulated on the CPU (SwiftShader,
/// lavapipe, llvmpipe): the first `cuda` run says so.
pub fn software_gpu() -> Option<String> {
    SOFTWARE_GPU.with_borrow(Clone::clone)
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Where the learner's theme choice is kept.
const THEME_KEY: &str = "tolab:theme";

/// Switches between the dark and the light theme (the first visit follows the system's choice);
/// the choice is kept in the browser.
#[component]
fn ThemeToggle() -> impl IntoView {
    let system_light = web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-color-scheme: light)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches());
    let initial = crate::storage::load(THEME_KEY)
        .unwrap_or_else(|| if system_light { "light" } else { "dark" }.to_owned());
    let theme = RwSignal::new(initial);
    Effect::new(move |_| {
        let theme = theme.get();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("data-theme", &theme);
        }
    });
    view! {
        <button
            type="button"
            class="theme-toggle"
            aria-label=move || if theme.get() == "light" { "Switch to the dark theme" } else { "Switch to the light theme" }
            on:click=move |_| {
                let next = if theme.get_untracked() == "light" { "dark" } else { "light" };
                crate::storage::save(THEME_KEY, next);
                theme.set(next.to_owned());
            }
        >
            {move || if theme.get() == "light" { "☾" } else { "☀" }}
        </button>
    }
}
