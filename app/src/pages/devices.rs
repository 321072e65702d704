//! `/devices`: the device panel. Which devices a notebook sees (cpu, cuda:N, mps), what runs
//! each (the WebGPU adapter, or plainly the CPU standing in), their memory caps, and the lab's
//! machine settings: how many GPUs it has and `CUDA_VISIBLE_DEVICES`. The settings are kept in
//! the browser and applied whenever the lab starts.

use leptos::prelude::*;
use tolab_cells::{DeviceReport, DeviceSettings, Reply, Request};

use crate::runtime_client::{RuntimeClient, use_runtime_client};

/// Where the settings are kept between visits.
const SETTINGS_KEY: &str = "tolab:devices";

/// The settings saved in this browser, if any.
pub fn saved_settings() -> Option<DeviceSettings> {
    serde_json::from_str(&crate::storage::load(SETTINGS_KEY)?).ok()
}

/// Sends `request` and returns the device report it answers with, or why there is none.
async fn ask(client: &RuntimeClient, request: Request) -> Result<DeviceReport, String> {
    match client.send(request).await {
        Reply::Devices(report) => Ok(report),
        Reply::Unavailable { reason } => Err(reason),
        other => Err(format!("unexpected reply from the runtime: {other:?}")),
    }
}

/// Whether `visible` (a `CUDA_VISIBLE_DEVICES` value) names only GPUs a machine with `gpus` GPUs
/// has, each once; the message says what is wrong and what CUDA would make of it.
fn check_visible(visible: &str, gpus: usize) -> Result<(), String> {
    if visible.is_empty() {
        return Ok(());
    }
    let range = match gpus {
        0 => "it has none".to_owned(),
        1 => "it has GPU 0 only".to_owned(),
        n => format!("its GPUs are 0 to {}", n - 1),
    };
    let mut seen = Vec::new();
    for entry in visible.split(',').map(str::trim) {
        let Ok(gpu) = entry.parse::<usize>() else {
            return Err(format!(
                "CUDA_VISIBLE_DEVICES lists GPUs by number, separated by commas (such as 1,0): `{entry}` is not a number, and CUDA would stop reading the list there."
            ));
        };
        if gpu >= gpus {
            return Err(format!(
                "CUDA_VISIBLE_DEVICES names GPU {gpu}, but this machine has {gpus} GPU{} ({range}): CUDA would stop reading the list there.",
                if gpus == 1 { "" } else { "s" }
            ));
        }
        if seen.contains(&gpu) {
            return Err(format!(
                "CUDA_VISIBLE_DEVICES names GPU {gpu} twice: CUDA would find no GPU at all."
            ));
        }
        seen.push(gpu);
    }
    Ok(())
}

#[component]
pub fn DevicesPage() -> impl IntoView {
    let client = use_runtime_client();
    let report = RwSignal::new(None::<Result<DeviceReport, String>>);
    let gpus = RwSignal::new(String::new());
    let visible = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    let show = move |answer: Result<DeviceReport, String>| {
        if let Ok(r) = &answer {
            gpus.set(r.settings.gpu_count.to_string());
            visible.set(r.settings.cuda_visible_devices.clone().unwrap_or_default());
        }
        report.set(Some(answer));
    };
    {
        let client = client.clone();
        leptos::task::spawn_local(
            async move { show(ask(&client, Request::DescribeDevices).await) },
        );
    }
    let apply = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let gpu_count = match gpus.get_untracked().trim().parse::<usize>() {
            Ok(n) if n <= DeviceSettings::MAX_GPUS => n,
            _ => {
                status.set(format!(
                    "The number of GPUs must be a whole number from 0 to {}.",
                    DeviceSettings::MAX_GPUS
                ));
                return;
            }
        };
        let text = visible.get_untracked().trim().to_owned();
        if let Err(problem) = check_visible(&text, gpu_count) {
            status.set(problem);
            return;
        }
        let settings = DeviceSettings {
            gpu_count,
            cuda_visible_devices: (!text.is_empty()).then_some(text),
        };
        if let Ok(json) = serde_json::to_string(&settings) {
            crate::storage::save(SETTINGS_KEY, &json);
        }
        let client = client.clone();
        leptos::task::spawn_local(async move {
            let answer = ask(&client, Request::Configure { settings }).await;
            status.set(match &answer {
                Ok(_) => "Applied: the session started afresh on this machine.".into(),
                Err(reason) => format!("Not applied: {reason}"),
            });
            show(answer);
        });
    };

    let table = move || {
        match report.get() {
        None => view! { <p class="viz-empty">"Asking the runtime…"</p> }.into_any(),
        Some(Err(reason)) => view! { <p class="notice error">{format!("The runtime did not answer: {reason}")}</p> }.into_any(),
        Some(Ok(report)) => view! {
            <p class="backend-line" data-testid="devices-backend">{report.backend.headline()}</p>
            <table class="device-table" data-testid="devices">
                <thead><tr><th scope="col">"device"</th><th scope="col">"runs on"</th><th scope="col">"memory cap"</th><th scope="col">"physical GPU"</th></tr></thead>
                <tbody>
                    {report.devices.into_iter().map(|d| view! {
                        <tr>
                            <td><code>{d.device}</code></td>
                            <td>{d.backing}</td>
                            <td>{format!("{:.1} GiB", d.capacity as f64 / f64::from(1u32 << 30))}</td>
                            <td>{d.physical.map(|p| p.to_string()).unwrap_or_else(|| "–".into())}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }.into_any(),
    }
    };

    view! {
        <section class="devices-page prose">
            <h1>"Devices"</h1>
            <p>
                "The devices a notebook on this page can use. Every " <code>"cuda:N"</code> " and "
                <code>"mps"</code> " tensor lives in the memory of the GPU adapter named below; where "
                "this browser has no WebGPU, the CPU stands in and the lab says so on every result."
            </p>
            {table}
            <h2>"The lab's machine"</h2>
            <form class="device-settings" novalidate=true on:submit=apply>
                <label>
                    "Number of GPUs"
                    <input type="number" min="0" max=DeviceSettings::MAX_GPUS name="gpus" bind:value=gpus/>
                </label>
                <label>
                    <code>"CUDA_VISIBLE_DEVICES"</code>
                    <input type="text" name="visible" placeholder="unset: every GPU is visible" bind:value=visible/>
                </label>
                <button type="submit">"Apply and reset the session"</button>
                <p class="form-status" role="status">{move || status.get()}</p>
            </form>
            <p>
                "As in a real process, CUDA reads " <code>"CUDA_VISIBLE_DEVICES"</code>
                " once, when it starts: " <code>"cuda:0"</code> " is the first GPU the list names. "
                "Applying starts the session afresh, as restarting Python would."
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::check_visible;

    #[test]
    fn visible_devices_must_name_gpus_the_machine_has_each_once() {
        assert_eq!(check_visible("", 2), Ok(()));
        assert_eq!(check_visible("3, 1", 4), Ok(()));
        let missing = check_visible("0,2", 2).unwrap_err();
        assert!(
            missing.contains("names GPU 2, but this machine has 2 GPUs (its GPUs are 0 to 1)"),
            "{missing}"
        );
        assert!(
            check_visible("a", 2)
                .unwrap_err()
                .contains("`a` is not a number")
        );
        assert!(check_visible("1,1", 2).unwrap_err().contains("GPU 1 twice"));
        assert!(check_visible("0", 0).unwrap_err().contains("it has none"));
    }
}
