//! The device timeline: the host thread, and per GPU device its copies and its kernels, so that
//! asynchronous launches, `non_blocking` copies and the host waiting at sync points are visible.
//!
//! The trace records the order of events and how long each sync waited, not when each kernel ran,
//! so the drawing is a schematic of the CUDA stream model: every launch costs the host one unit,
//! every kernel and copy occupies its device for two, a device runs its work in launch order, and
//! the host stops at a sync until its device is idle. Order, overlap and waits are the run's own;
//! lengths are not measured (the measured wait is in each sync's label).

use leptos::prelude::*;
use tolab_cells::Device;
use tolab_cells::trace::{Backend, EventKind, TraceEvent};

use tolab_cells::Size;

use super::{Lens, canvas, device_class, line_in};

/// The most blocks drawn: the end of a long run.
pub const MAX_BLOCKS: usize = 400;
const LAUNCH: u64 = 1;
const DEVICE_WORK: u64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Host,
    Copies(Device),
    Kernels(Device),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// Work the host does itself (CPU kernels, GPU work done on the host).
    Host,
    /// The host launching GPU work.
    Launch,
    Kernel,
    Copy,
    /// The host waiting for a device.
    Wait,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub lane: Lane,
    pub kind: BlockKind,
    pub start: u64,
    pub width: u64,
    pub label: String,
    pub line: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    pub blocks: Vec<Block>,
    pub hidden: usize,
}

/// Where each GPU device's stream is busy until.
#[derive(Default)]
struct Streams(Vec<(Device, u64)>);

impl Streams {
    fn free_at(&mut self, device: Device) -> &mut u64 {
        let i = match self.0.iter().position(|(d, _)| *d == device) {
            Some(i) => i,
            None => {
                self.0.push((device, 0));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }
}

/// Lays out `trace` on the schematic clock.
pub fn timeline(trace: &[TraceEvent], cell: &str) -> Timeline {
    let mut host = 0u64;
    let mut streams = Streams::default();
    let mut blocks: Vec<Block> = Vec::new();
    for event in trace {
        let line = line_in(cell, event);
        let mut block = |lane, kind, start, width, label: String| {
            blocks.push(Block {
                lane,
                kind,
                start,
                width,
                label,
                line,
            });
        };
        match (&event.kind, event.device) {
            (EventKind::Kernel { op, backend }, Some(device)) if !device.is_cpu() => {
                if *backend == Backend::Gpu {
                    block(
                        Lane::Host,
                        BlockKind::Launch,
                        host,
                        LAUNCH,
                        format!("launch {op}"),
                    );
                    host += LAUNCH;
                    let free = streams.free_at(device);
                    let start = (*free).max(host);
                    *free = start + DEVICE_WORK;
                    block(
                        Lane::Kernels(device),
                        BlockKind::Kernel,
                        start,
                        DEVICE_WORK,
                        op.clone(),
                    );
                } else {
                    block(
                        Lane::Host,
                        BlockKind::Host,
                        host,
                        LAUNCH,
                        format!("{op} for {device}, on the host"),
                    );
                    host += LAUNCH;
                }
            }
            (EventKind::Kernel { op, .. }, _) => {
                block(Lane::Host, BlockKind::Host, host, LAUNCH, op.clone());
                host += LAUNCH;
            }
            (
                EventKind::Copy {
                    from,
                    to,
                    bytes,
                    non_blocking,
                    ..
                },
                _,
            ) => {
                let Some(device) = [*from, *to].into_iter().find(|d| !d.is_cpu()) else {
                    continue;
                };
                let free = streams.free_at(device);
                let start = (*free).max(host);
                *free = start + DEVICE_WORK;
                let end = *free;
                let label = format!(
                    "{from} → {to} {}{}",
                    Size(*bytes),
                    if *non_blocking { " (non_blocking)" } else { "" }
                );
                block(
                    Lane::Copies(device),
                    BlockKind::Copy,
                    start,
                    DEVICE_WORK,
                    label,
                );
                if !non_blocking {
                    if end > host + LAUNCH {
                        block(
                            Lane::Host,
                            BlockKind::Wait,
                            host,
                            end - host,
                            "waits for the copy".into(),
                        );
                    }
                    host = host.max(end);
                } else {
                    host += LAUNCH;
                }
            }
            (EventKind::Sync { reason, waited_us }, Some(device)) => {
                let free = *streams.free_at(device);
                let width = free.saturating_sub(host).max(1);
                block(
                    Lane::Host,
                    BlockKind::Wait,
                    host,
                    width,
                    format!("sync: {reason} (waited {waited_us} µs)"),
                );
                host += width;
            }
            _ => {}
        }
    }
    let hidden = blocks.len().saturating_sub(MAX_BLOCKS);
    let blocks = blocks.split_off(hidden);
    let mut lanes = vec![Lane::Host];
    for (device, _) in &streams.0 {
        for lane in [Lane::Copies(*device), Lane::Kernels(*device)] {
            if blocks.iter().any(|b| b.lane == lane) {
                lanes.push(lane);
            }
        }
    }
    Timeline {
        lanes,
        blocks,
        hidden,
    }
}

fn lane_name(lane: Lane) -> String {
    match lane {
        Lane::Host => "host thread".into(),
        Lane::Copies(d) => format!("{d} copies"),
        Lane::Kernels(d) => format!("{d} kernels"),
    }
}

const UNIT: f64 = 16.0;
const LANE_H: f64 = 30.0;
const LABELS: f64 = 118.0;

pub fn view(timeline: Signal<Timeline>, lens: Lens) -> impl IntoView {
    let drawing = move || {
        let timeline = timeline.get();
        let origin = timeline.blocks.first().map_or(0, |b| b.start);
        let end = timeline
            .blocks
            .iter()
            .map(|b| b.start + b.width)
            .max()
            .unwrap_or(0);
        let width = LABELS + (end - origin) as f64 * UNIT + 8.0;
        let height = timeline.lanes.len() as f64 * LANE_H + 4.0;
        let lane_of = |lane: Lane| timeline.lanes.iter().position(|l| *l == lane).unwrap_or(0);
        let names = timeline
            .lanes
            .iter()
            .enumerate()
            .map(|(i, lane)| {
                let y = i as f64 * LANE_H;
                let class = match lane {
                    Lane::Host => "lane host".to_owned(),
                    Lane::Copies(d) | Lane::Kernels(d) => format!("lane {}", device_class(*d)),
                };
                view! {
                    <g class=class>
                        <rect x="0" y=y + 2.0 width=width height=LANE_H - 4.0 class="lane-band"/>
                        <text x="6" y=y + LANE_H / 2.0 + 4.0>{lane_name(*lane)}</text>
                    </g>
                }
            })
            .collect_view();
        let blocks = timeline
            .blocks
            .iter()
            .map(|b| {
                let x = LABELS + (b.start - origin) as f64 * UNIT;
                let y = lane_of(b.lane) as f64 * LANE_H + 5.0;
                let kind = match b.kind {
                    BlockKind::Host => "host-work",
                    BlockKind::Launch => "launch",
                    BlockKind::Kernel => "kernel",
                    BlockKind::Copy => "copy",
                    BlockKind::Wait => "wait",
                };
                let line = b.line;
                let title = format!(
                    "{}{}",
                    line.map(|l| format!("line {l}: ")).unwrap_or_default(),
                    b.label
                );
                let label = title.clone();
                view! {
                    <rect
                        class=format!("block {kind}")
                        class:linked=move || lens.is_hovered(line)
                        x=x
                        y=y
                        width=(b.width as f64 * UNIT - 2.0).max(2.0)
                        height=LANE_H - 10.0
                        rx="3"
                        tabindex="0"
                        role="button"
                        aria-label=label
                        on:click=move |_| lens.pick(line)
                        on:keydown=lens.key(line)
                    >
                        <title>{title}</title>
                    </rect>
                }
            })
            .collect_view();
        canvas(
            "timeline-canvas",
            "Device timeline: the host thread, and each device's copies and kernels",
            (width, height),
            (names, blocks),
        )
    };
    let hidden = move || {
        let hidden = timeline.with(|t| t.hidden);
        (hidden > 0).then(|| view! { <p class="viz-note">{format!("The first {hidden} blocks are left out.")}</p> })
    };
    view! {
        <div class="timeline">
            <Show
                when=move || timeline.with(|t| !t.blocks.is_empty())
                fallback=|| view! { <p class="viz-empty">"No kernels, copies or syncs in this cell."</p> }
            >
                <p class="viz-legend">
                    <span class="key launch">"launch"</span>
                    <span class="key kernel">"kernel"</span>
                    <span class="key copy">"copy"</span>
                    <span class="key wait">"host waits (sync)"</span>
                    <span class="key host-work">"work on the host"</span>
                    " Schematic: order, overlap and waits are this run's; lengths are not measured."
                </p>
                {hidden}
                <div class="timeline-scroll">{drawing}</div>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viz::tests::event_on;

    /// Where each block is: its lane, kind, start and width.
    fn spans(t: &Timeline) -> Vec<(Lane, BlockKind, u64, u64)> {
        t.blocks
            .iter()
            .map(|b| (b.lane, b.kind, b.start, b.width))
            .collect()
    }

    fn kernel(op: &str, backend: Backend) -> EventKind {
        EventKind::Kernel {
            op: op.into(),
            backend,
        }
    }

    #[test]
    fn launches_run_ahead_of_the_device_until_a_sync_waits_for_it() {
        let gpu = Device::cuda(0);
        let trace = vec![
            event_on(0, gpu, None, kernel("mul", Backend::Gpu)),
            event_on(1, gpu, None, kernel("add", Backend::Gpu)),
            event_on(
                2,
                gpu,
                None,
                EventKind::Sync {
                    reason: "item()".into(),
                    waited_us: 40,
                },
            ),
            event_on(3, Device::CPU, None, kernel("add", Backend::Cpu)),
        ];
        let t = timeline(&trace, "<cell 1>");
        assert_eq!(t.lanes, [Lane::Host, Lane::Kernels(gpu)]);
        assert_eq!(
            spans(&t),
            [
                (Lane::Host, BlockKind::Launch, 0, 1),
                (Lane::Kernels(gpu), BlockKind::Kernel, 1, 2),
                (Lane::Host, BlockKind::Launch, 1, 1),
                // Queued behind the first kernel: the host is already further on.
                (Lane::Kernels(gpu), BlockKind::Kernel, 3, 2),
                // The host waits from 2 until the device is idle at 5.
                (Lane::Host, BlockKind::Wait, 2, 3),
                (Lane::Host, BlockKind::Host, 5, 1),
            ]
        );
        assert!(t.blocks[4].label.contains("waited 40 µs"));
    }

    #[test]
    fn a_non_blocking_copy_lets_the_host_go_on_and_a_blocking_one_waits() {
        let gpu = Device::cuda(1);
        let copy = |non_blocking| EventKind::Copy {
            from: Device::CPU,
            to: gpu,
            bytes: 1024,
            non_blocking,
            backend: Backend::Gpu,
        };
        let t = timeline(
            &[
                event_on(0, gpu, None, copy(true)),
                event_on(1, gpu, None, copy(false)),
            ],
            "<cell 1>",
        );
        assert_eq!(
            spans(&t),
            [
                (Lane::Copies(gpu), BlockKind::Copy, 0, 2),
                (Lane::Copies(gpu), BlockKind::Copy, 2, 2),
                (Lane::Host, BlockKind::Wait, 1, 3),
            ]
        );
        assert!(t.blocks[0].label.ends_with("(non_blocking)"));
    }
}
