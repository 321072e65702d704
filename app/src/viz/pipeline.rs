//! The transfer pipeline: each `.to()` (and `.cuda()`, `.cpu()`, a load with `map_location`, …)
//! that moved data, as its seven steps lighting up in order with what each decided; a failing
//! step turns red with the error and the steps after it are never reached. Replay, pause and
//! speed controls drive the light.

use leptos::prelude::*;
use tolab_cells::trace::{EventKind, TraceEvent, TransferStep};

use super::{Lens, line_in};

/// One transfer, as its steps reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    pub id: u64,
    /// The line of the cell that asked for it.
    pub line: Option<u32>,
    /// What step 1 decided, as the transfer's headline (`'cuda' → cuda:0 …`).
    pub headline: String,
    /// The steps that ran, in order; a failed one is last.
    pub steps: Vec<StepOutcome>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    pub step: TransferStep,
    pub ok: bool,
    pub detail: String,
}

impl Transfer {
    pub fn failed(&self) -> bool {
        self.steps.iter().any(|s| !s.ok)
    }
}

/// The transfers in `trace`, in the order they started.
pub fn transfers(trace: &[TraceEvent], cell: &str) -> Vec<Transfer> {
    let mut transfers: Vec<Transfer> = Vec::new();
    for event in trace {
        let EventKind::TransferStep {
            transfer,
            step,
            ok,
            detail,
        } = &event.kind
        else {
            continue;
        };
        let outcome = StepOutcome {
            step: *step,
            ok: *ok,
            detail: detail.clone(),
        };
        match transfers.iter_mut().rev().find(|t| t.id == *transfer) {
            Some(known) => known.steps.push(outcome),
            None => transfers.push(Transfer {
                id: *transfer,
                line: line_in(cell, event),
                headline: detail.clone(),
                steps: vec![outcome],
            }),
        }
    }
    transfers
}

/// How long one step stays the newest lit at 1× speed.
const STEP_MS: f64 = 600.0;
/// The replay clock's tick.
const TICK_MS: u64 = 40;

/// The pipeline view: a list of the run's transfers and the chosen one's seven steps.
pub fn view(transfers: Signal<Vec<Transfer>>, lens: Lens) -> impl IntoView {
    let chosen = RwSignal::new(0usize);
    // How many steps are lit, in steps (fractions light the next one gradually).
    let playhead = RwSignal::new(0.0f64);
    let playing = RwSignal::new(true);
    let speed = RwSignal::new(1.0f64);
    // A new run (or a step of one) shows its latest transfer from the start.
    Effect::new(move |_| {
        let count = transfers.with(Vec::len);
        chosen.set(count.saturating_sub(1));
        playhead.set(0.0);
        playing.set(true);
    });
    // The replay clock: while playing and not all lit, each tick schedules the next; a paused or
    // finished replay schedules nothing. A tick scheduled before a Replay or a new run is stale.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let lit = playhead.get();
        let now = generation.get_value() + 1;
        generation.set_value(now);
        if playing.get() && lit < 7.0 {
            set_timeout(
                move || {
                    if generation.try_get_value() != Some(now) {
                        return;
                    }
                    if let (Some(true), Some(speed)) =
                        (playing.try_get_untracked(), speed.try_get_untracked())
                    {
                        let step = TICK_MS as f64 / STEP_MS * speed;
                        playhead.try_update(|p| *p = (*p + step).min(7.0));
                    }
                },
                std::time::Duration::from_millis(TICK_MS),
            );
        }
    });

    let list = move || {
        transfers
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, transfer)| {
                let line = transfer.line;
                let label = format!(
                    "{}{}",
                    line.map(|l| format!("line {l}: ")).unwrap_or_default(),
                    transfer.headline
                );
                let failed = transfer.failed();
                view! {
                    <li>
                        <button
                            type="button"
                            class="transfer-choice"
                            class:failed=failed
                            class:linked=move || lens.is_hovered(line)
                            aria-pressed=move || (chosen.get() == i).to_string()
                            on:click=move |_| {
                                chosen.set(i);
                                playhead.set(0.0);
                                playing.set(true);
                                lens.pick(line);
                            }
                        >
                            {label}
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    let steps = move || {
        let all = transfers.get();
        let transfer = all.get(chosen.get()).cloned()?;
        let line = transfer.line;
        Some(
            TransferStep::ALL
                .iter()
                .enumerate()
                .map(|(i, step)| {
                    let outcome = transfer.steps.iter().find(|s| s.step == *step).cloned();
                    let state = match &outcome {
                        None => "unreached",
                        Some(o) if !o.ok => "failed",
                        Some(_) => "ok",
                    };
                    let detail = match outcome {
                        Some(o) => o.detail,
                        None => "not reached: an earlier step failed".to_owned(),
                    };
                    let lit = move || playhead.get() > i as f64;
                    // The newest lit step fades in over its share of the clock.
                    let glow = move || {
                        let f = (playhead.get() - i as f64).clamp(0.0, 1.0);
                        format!("--lit: {f:.2}")
                    };
                    view! {
                        <li
                            class=format!("pipeline-step {state}")
                            class:lit=lit
                            class:linked=move || lens.is_hovered(line)
                            style=glow
                            data-step=step.number()
                            on:click=move |_| lens.pick(line)
                        >
                            <span class="step-number" aria-hidden="true">{step.number()}</span>
                            <span class="step-title">{step.title()}</span>
                            <span class="step-verdict">{detail}</span>
                        </li>
                    }
                })
                .collect_view(),
        )
    };
    let speeds = move || {
        [0.5, 1.0, 2.0, 4.0].map(|s| {
            view! { <option value=s.to_string() selected=move || speed.get() == s>{format!("{s}×")}</option> }
        })
    };

    view! {
        <div class="pipeline">
            <Show
                when=move || transfers.with(|t| !t.is_empty())
                fallback=|| view! { <p class="viz-empty">"No transfer ran in this cell: nothing called .to(), .cuda() or .cpu() on a tensor that had to move."</p> }
            >
                <ol class="transfer-list" aria-label="Transfers in this run">{list}</ol>
                <div class="pipeline-controls" role="group" aria-label="Replay">
                    <button type="button" on:click=move |_| { playhead.set(0.0); playing.set(true); }>"Replay"</button>
                    <button type="button" on:click=move |_| playing.update(|p| *p = !*p)>
                        {move || if playing.get() { "Pause" } else { "Play" }}
                    </button>
                    <button type="button" on:click=move |_| playhead.set(7.0)>"Show all"</button>
                    <label>
                        "Speed "
                        <select on:change=move |e| {
                            if let Ok(s) = event_target_value(&e).parse() {
                                speed.set(s);
                            }
                        }>{speeds}</select>
                    </label>
                </div>
                <ol class="pipeline-steps" aria-label="The seven steps of the transfer">{steps}</ol>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viz::tests::{event, span};

    fn step(transfer: u64, step: TransferStep, ok: bool) -> EventKind {
        EventKind::TransferStep {
            transfer,
            step,
            ok,
            detail: format!("{step:?} {ok}"),
        }
    }

    #[test]
    fn steps_group_by_transfer_and_a_failed_step_ends_its_transfer() {
        let trace = vec![
            event(
                0,
                Some(span("<cell 1>", 2)),
                step(7, TransferStep::ParseDevice, true),
            ),
            event(
                1,
                None,
                EventKind::Kernel {
                    op: "fill".into(),
                    backend: tolab_cells::trace::Backend::Cpu,
                },
            ),
            event(
                2,
                Some(span("<cell 1>", 2)),
                step(7, TransferStep::CheckCompatibility, true),
            ),
            event(
                3,
                Some(span("<cell 2>", 4)),
                step(9, TransferStep::ParseDevice, true),
            ),
            event(
                4,
                Some(span("<cell 2>", 4)),
                step(9, TransferStep::CheckCompatibility, false),
            ),
        ];
        let transfers = transfers(&trace, "<cell 1>");
        assert_eq!(transfers.len(), 2);
        assert_eq!(transfers[0].line, Some(2));
        assert_eq!(transfers[0].steps.len(), 2);
        assert!(!transfers[0].failed());
        assert_eq!(transfers[0].headline, "ParseDevice true");
        // A transfer started from another cell's function has no line in this one.
        assert_eq!(transfers[1].line, None);
        assert!(transfers[1].failed());
    }
}
