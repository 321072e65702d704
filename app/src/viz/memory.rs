//! Device memory over the cell's run: per device, the bytes allocated to tensors and the bytes
//! the caching allocator reserved, after each allocation, free and release, each step labelled
//! with the line that caused it; the peak marked, and an out-of-memory error drawn at the
//! device's capacity.

use leptos::prelude::*;
use tolab_cells::Device;
use tolab_cells::trace::{EventKind, TraceEvent};

use tolab_cells::Size;

use super::{Lens, device_class, line_in};

#[derive(Debug, Clone, PartialEq)]
pub struct DeviceMemory {
    pub device: Device,
    /// The state after each change, in order.
    pub points: Vec<MemoryPoint>,
    /// The index of the point with the most bytes allocated.
    pub peak: usize,
    pub oom: Option<OutOfMemory>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MemoryPoint {
    pub allocated: u64,
    pub reserved: u64,
    pub line: Option<u32>,
    /// What happened: `+512 B`, `-512 B`, `released 2.00 MiB`.
    pub change: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OutOfMemory {
    pub tried: u64,
    pub capacity: u64,
    pub line: Option<u32>,
}

/// Each device's memory over `trace`, devices in the order they first allocated.
pub fn memory(trace: &[TraceEvent], cell: &str) -> Vec<DeviceMemory> {
    let mut devices: Vec<DeviceMemory> = Vec::new();
    for event in trace {
        let Some(device) = event.device else { continue };
        let line = line_in(cell, event);
        let (allocated, reserved, change) = match &event.kind {
            EventKind::Alloc {
                bytes,
                allocated,
                reserved,
                ..
            } => (*allocated, *reserved, format!("+{}", Size(*bytes))),
            EventKind::Free {
                block_size,
                allocated,
                reserved,
            } => (*allocated, *reserved, format!("-{}", Size(*block_size))),
            EventKind::Release { bytes, reserved } => {
                let allocated = devices
                    .iter()
                    .find(|d| d.device == device)
                    .and_then(|d| d.points.last())
                    .map_or(0, |p| p.allocated);
                (allocated, *reserved, format!("released {}", Size(*bytes)))
            }
            EventKind::OutOfMemory {
                tried, capacity, ..
            } => {
                let oom = OutOfMemory {
                    tried: *tried,
                    capacity: *capacity,
                    line,
                };
                match devices.iter_mut().find(|d| d.device == device) {
                    Some(known) => known.oom = Some(oom),
                    None => devices.push(DeviceMemory {
                        device,
                        points: Vec::new(),
                        peak: 0,
                        oom: Some(oom),
                    }),
                }
                continue;
            }
            _ => continue,
        };
        let point = MemoryPoint {
            allocated,
            reserved,
            line,
            change,
        };
        match devices.iter_mut().find(|d| d.device == device) {
            Some(known) => {
                if allocated > known.points.get(known.peak).map_or(0, |p| p.allocated) {
                    known.peak = known.points.len();
                }
                known.points.push(point);
            }
            None => devices.push(DeviceMemory {
                device,
                points: vec![point],
                peak: 0,
                oom: None,
            }),
        }
    }
    devices
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 110.0;
const LEFT: f64 = 8.0;
const TOP: f64 = 18.0;

/// One device's chart.
fn chart(memory: DeviceMemory, lens: Lens) -> impl IntoView {
    let top = memory
        .points
        .iter()
        .map(|p| p.reserved)
        .chain(memory.oom.as_ref().map(|o| o.capacity))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let n = memory.points.len().max(1) as f64;
    let step = WIDTH / n;
    let x = move |i: usize| LEFT + i as f64 * step;
    let y = move |bytes: u64| TOP + HEIGHT - bytes as f64 / top * HEIGHT;
    // Step lines: each value holds until the next change.
    let path = |value: fn(&MemoryPoint) -> u64| {
        let mut d = format!("M{:.1},{:.1}", x(0), y(0));
        for (i, p) in memory.points.iter().enumerate() {
            d.push_str(&format!(" V{:.1} H{:.1}", y(value(p)), x(i + 1)));
        }
        d
    };
    let reserved = path(|p| p.reserved);
    let allocated = path(|p| p.allocated);
    let peak = memory.points.get(memory.peak).map(|p| {
        let (px, py) = (x(memory.peak) + step / 2.0, y(p.allocated));
        view! {
            <g class="memory-peak">
                <circle cx=px cy=py r="4"/>
                <text x=px + 6.0 y=(py - 6.0).max(12.0)>{format!("peak {}", Size(p.allocated))}</text>
            </g>
        }
    });
    let oom = memory.oom.clone().map(|oom| {
        let cap = y(oom.capacity);
        let line = oom.line;
        view! {
            <g class="memory-oom" class:linked=move || lens.is_hovered(line) on:click=move |_| lens.pick(line)>
                <line x1=LEFT y1=cap x2=LEFT + WIDTH y2=cap/>
                <text x=LEFT + 4.0 y=cap - 4.0>
                    {format!("capacity {} · out of memory: tried to allocate {}", Size(oom.capacity), Size(oom.tried))}
                </text>
            </g>
        }
    });
    // One hover target per change: its column.
    let columns = memory
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let line = p.line;
            let label = format!(
                "{}{}: allocated {}, reserved {}",
                line.map(|l| format!("line {l}: ")).unwrap_or_default(),
                p.change,
                Size(p.allocated),
                Size(p.reserved)
            );
            view! {
                <rect
                    class="memory-step"
                    class:linked=move || lens.is_hovered(line)
                    x=x(i)
                    y=TOP
                    width=step
                    height=HEIGHT
                    data-allocated=p.allocated
                    on:click=move |_| lens.pick(line)
                >
                    <title>{label}</title>
                </rect>
            }
        })
        .collect_view();
    let last = memory.points.last();
    let summary = format!(
        "{}: allocated {} · reserved {}",
        memory.device,
        Size(last.map_or(0, |p| p.allocated)),
        Size(last.map_or(0, |p| p.reserved)),
    );
    view! {
        <figure class=format!("memory-device {}", device_class(memory.device)) data-device=memory.device.to_string()>
            <figcaption>{summary}</figcaption>
            <svg
                class="memory-chart"
                viewBox=format!("0 0 {} {}", WIDTH + 2.0 * LEFT, HEIGHT + TOP + 8.0)
                role="img"
                aria-label=format!("Memory of {} over the run", memory.device)
            >
                <line class="memory-axis" x1=LEFT y1=TOP + HEIGHT x2=LEFT + WIDTH y2=TOP + HEIGHT/>
                {columns}
                <path class="memory-reserved" d=reserved/>
                <path class="memory-allocated" d=allocated/>
                {peak}
                {oom}
            </svg>
        </figure>
    }
}

pub fn view(memory: Signal<Vec<DeviceMemory>>, lens: Lens) -> impl IntoView {
    view! {
        <div class="memory">
            <Show
                when=move || memory.with(|m| !m.is_empty())
                fallback=|| view! { <p class="viz-empty">"No memory was allocated or freed in this cell."</p> }
            >
                <p class="viz-legend">
                    <span class="key allocated">"allocated (tensors)"</span>
                    <span class="key reserved">"reserved (the caching allocator's segments)"</span>
                </p>
                {move || memory.get().into_iter().map(|m| chart(m, lens)).collect_view()}
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viz::tests::{event_on, span};

    #[test]
    fn each_device_keeps_its_own_series_peak_and_out_of_memory() {
        let cuda = Device::cuda(0);
        let cpu = Device::CPU;
        let at = |line| Some(span("<cell 1>", line));
        let alloc = |allocated, reserved| EventKind::Alloc {
            bytes: 512,
            block_size: 512,
            new_segment: 0,
            allocated,
            reserved,
        };
        let trace = vec![
            event_on(0, cuda, at(1), alloc(512, 2048)),
            event_on(1, cpu, at(1), alloc(24, 24)),
            event_on(2, cuda, at(2), alloc(1024, 2048)),
            event_on(
                3,
                cuda,
                at(3),
                EventKind::Free {
                    block_size: 512,
                    allocated: 512,
                    reserved: 2048,
                },
            ),
            event_on(
                4,
                cuda,
                at(4),
                EventKind::Release {
                    bytes: 0,
                    reserved: 2048,
                },
            ),
            event_on(
                5,
                cuda,
                at(5),
                EventKind::OutOfMemory {
                    tried: 1 << 30,
                    capacity: 1 << 20,
                    message: String::new(),
                },
            ),
        ];
        let memory = memory(&trace, "<cell 1>");
        assert_eq!(memory.len(), 2);
        let gpu = &memory[0];
        assert_eq!(gpu.device, cuda);
        let allocated: Vec<u64> = gpu.points.iter().map(|p| p.allocated).collect();
        assert_eq!(allocated, [512, 1024, 512, 512]);
        assert_eq!(gpu.peak, 1);
        assert_eq!(gpu.points[1].line, Some(2));
        assert_eq!(gpu.points[2].change, "-512 bytes");
        assert_eq!(
            gpu.oom.as_ref().map(|o| (o.capacity, o.line)),
            Some((1 << 20, Some(5)))
        );
        assert_eq!(memory[1].points.len(), 1);
    }
}
