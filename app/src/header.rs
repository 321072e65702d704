//! The top bar: the lab's name, navigation, and what backs the GPU devices on this page.

use leptos::prelude::*;
use leptos_router::components::A;
use tolab_cells::{BackendReport, Reply, Request};

use crate::runtime_client::use_runtime_client;

#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="site-header">
            <A href="/" attr:class="brand">
                <span class="brand-mark">"→"</span>
                <span class="brand-name">"to(device) lab"</span>
            </A>
            <nav class="site-nav">
                <A href="/">"Lessons"</A>
            </nav>
            <BackendBadge/>
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
            let (state, title) = match &report {
                BackendReport::Gpu { adapter } => (
                    "gpu",
                    format!(
                        "cuda:N and mps tensors run on this adapter. shader-f16: {}; float64: {}; largest storage binding: {} MiB",
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
                <div class=format!("backend-badge {state}") data-testid="backend" data-state=state title=title>
                    <span class="dot"></span>
                    {report.headline()}
                </div>
            }
            .into_any()
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
