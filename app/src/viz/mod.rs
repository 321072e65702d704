//! What happened inside a cell's run, drawn from its trace alone (DESIGN.md, "The app"): the
//! transfer pipeline, the autograd graph, device memory and the device timeline, as tabs under
//! the cell's output. Each visual is a pure function from the trace to a model (tested natively)
//! and an SVG/CSS view of that model. Marks are tied to the cell's lines both ways: clicking one
//! shows its line in the editor, and hovering a line in the editor lights its marks.

mod graph;
mod memory;
mod pipeline;
mod timeline;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use tolab_cells::trace::TraceEvent;
use tolab_cells::{Device, DeviceType};
use wasm_bindgen::JsCast;

/// How a visual's marks point at the cell's source.
#[derive(Clone, Copy)]
pub struct Lens {
    /// The cell's number on the page.
    cell: usize,
    /// The line the learner's pointer is over in the editor.
    hovered: RwSignal<Option<u32>>,
}

impl Lens {
    fn is_hovered(self, line: Option<u32>) -> bool {
        line.is_some() && self.hovered.get() == line
    }

    /// Shows `line` in the cell's editor.
    fn pick(self, line: Option<u32>) {
        if let Some(line) = line {
            crate::cells::show_line(self.cell, line);
        }
    }

    /// Enter or Space on a focused mark picks its line, as a click does.
    fn key(self, line: Option<u32>) -> impl Fn(web_sys::KeyboardEvent) + Copy {
        move |event: web_sys::KeyboardEvent| {
            if matches!(event.key().as_str(), "Enter" | " ") {
                event.prevent_default();
                self.pick(line);
            }
        }
    }
}

/// The line of cell `cell` an event belongs to (none for events of code from other cells).
fn line_in(cell: &str, event: &TraceEvent) -> Option<u32> {
    event
        .span
        .as_ref()
        .filter(|span| &*span.cell == cell)
        .map(|span| span.line)
}

/// The CSS class that colours marks by device.
fn device_class(device: Device) -> &'static str {
    match device.kind {
        DeviceType::Cpu => "dev-cpu",
        DeviceType::Mps => "dev-mps",
        DeviceType::Meta => "dev-meta",
        _ if device.index.unwrap_or(0) % 2 == 1 => "dev-cuda1",
        _ => "dev-cuda",
    }
}

/// A drawing `width` × `height` pixels large, drawn at that size (its panel scrolls), described
/// to assistive tools by `label`.
fn canvas(
    class: &'static str,
    label: &'static str,
    (width, height): (f64, f64),
    marks: impl IntoView,
) -> impl IntoView {
    view! {
        <svg
            class=class
            width=width
            height=height
            viewBox=format!("0 0 {width:.0} {height:.0}")
            role="img"
            aria-label=label
        >
            {marks}
        </svg>
    }
}

/// Every visual's model of one run.
#[derive(Clone, Default, PartialEq)]
struct Models {
    transfers: Vec<pipeline::Transfer>,
    graph: graph::Graph,
    memory: Vec<memory::DeviceMemory>,
    timeline: timeline::Timeline,
}

impl Models {
    fn of(trace: &[TraceEvent], cell: &str) -> Self {
        Models {
            transfers: pipeline::transfers(trace, cell),
            graph: graph::graph(trace, cell),
            memory: memory::memory(trace, cell),
            timeline: timeline::timeline(trace, cell),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Transfers,
    Graph,
    Memory,
    Timeline,
}

impl Tab {
    const ALL: [Tab; 4] = [Tab::Transfers, Tab::Graph, Tab::Memory, Tab::Timeline];

    fn title(self) -> &'static str {
        match self {
            Tab::Transfers => "Transfers",
            Tab::Graph => "Autograd graph",
            Tab::Memory => "Device memory",
            Tab::Timeline => "Device timeline",
        }
    }

    fn id(self) -> &'static str {
        match self {
            Tab::Transfers => "transfers",
            Tab::Graph => "graph",
            Tab::Memory => "memory",
            Tab::Timeline => "timeline",
        }
    }

    /// How many marks the tab has, for its badge.
    fn count(self, models: &Models) -> usize {
        match self {
            Tab::Transfers => models.transfers.len(),
            Tab::Graph => models.graph.nodes.len() + models.graph.cuts.len(),
            Tab::Memory => models.memory.iter().map(|m| m.points.len()).sum(),
            Tab::Timeline => models.timeline.blocks.len(),
        }
    }
}

/// A cell's models, the line hovered in its editor and the events left out, made in the visuals'
/// own reactive owner.
type Signals = (RwSignal<Models>, RwSignal<Option<u32>>, RwSignal<u64>);

/// A cell's visuals: the trace of its latest run and the views drawn from it.
#[derive(Clone)]
pub struct Visuals {
    cell: Rc<str>,
    trace: Rc<RefCell<Vec<TraceEvent>>>,
    models: RwSignal<Models>,
    hovered: RwSignal<Option<u32>>,
    /// When the models were last drawn from the trace (ms): a running cell redraws them at most
    /// every [`REDRAW_MS`], so that a long loop's events do not keep the page busy.
    drawn: Rc<Cell<f64>>,
    /// Events the runtime counted but did not keep (its limit per run).
    dropped: RwSignal<u64>,
}

/// The least time between two drawings of a running cell's visuals.
const REDRAW_MS: f64 = 500.0;

impl Visuals {
    /// Mounts the (empty) visuals of cell `number`, named `cell` in traces, at the end of
    /// `parent`.
    pub fn mount(parent: &web_sys::Element, number: usize, cell: &str) -> Option<Visuals> {
        let parent = parent.clone().dyn_into::<web_sys::HtmlElement>().ok()?;
        let signals: Rc<RefCell<Option<Signals>>> = Rc::default();
        let out = Rc::clone(&signals);
        // The visuals live as long as the page's cells; their reactive owner with them.
        leptos::mount::mount_to(parent, move || {
            let models = RwSignal::new(Models::default());
            let hovered = RwSignal::new(None);
            let dropped = RwSignal::new(0);
            *out.borrow_mut() = Some((models, hovered, dropped));
            panel(
                models,
                dropped,
                Lens {
                    cell: number,
                    hovered,
                },
            )
        })
        .forget();
        let (models, hovered, dropped) = signals.take()?;
        Some(Visuals {
            cell: cell.into(),
            trace: Rc::default(),
            models,
            hovered,
            drawn: Rc::default(),
            dropped,
        })
    }

    /// A new run starts: its events replace the last run's.
    pub fn restart(&self) {
        self.trace.borrow_mut().clear();
        self.models.set(Models::default());
        self.dropped.set(0);
        self.drawn.set(js_sys::Date::now());
    }

    /// Events the running (or stepped) cell recorded since the last call; drawn now, unless the
    /// visuals were drawn less than [`REDRAW_MS`] ago.
    pub fn extend(&self, events: Vec<TraceEvent>) {
        if events.is_empty() {
            return;
        }
        self.trace.borrow_mut().extend(events);
        let now = js_sys::Date::now();
        if now - self.drawn.get() >= REDRAW_MS {
            self.draw(now);
        }
    }

    /// Draws what was recorded now (a run ended, or a Step ran), saying how many events the
    /// trace left out.
    pub fn draw_now(&self, dropped: u64) {
        self.dropped.set(dropped);
        self.draw(js_sys::Date::now());
    }

    fn draw(&self, now: f64) {
        self.drawn.set(now);
        let models = Models::of(&self.trace.borrow(), &self.cell);
        self.models.set(models);
    }

    /// The line the learner's pointer is over in the editor (0: none).
    pub fn hover(&self, line: u32) {
        self.hovered.set((line > 0).then_some(line));
    }
}

/// The tabs and the chosen visual.
fn panel(models: RwSignal<Models>, dropped: RwSignal<u64>, lens: Lens) -> impl IntoView {
    let tab = RwSignal::new(Tab::Transfers);
    let transfers = Signal::derive(move || models.with(|m| m.transfers.clone()));
    let graph = Signal::derive(move || models.with(|m| m.graph.clone()));
    let memory = Signal::derive(move || models.with(|m| m.memory.clone()));
    let timeline = Signal::derive(move || models.with(|m| m.timeline.clone()));
    let tabs = Tab::ALL
        .into_iter()
        .map(|t| {
            view! {
                <button
                    type="button"
                    role="tab"
                    class="viz-tab"
                    data-tab=t.id()
                    aria-selected=move || (tab.get() == t).to_string()
                    tabindex=move || if tab.get() == t { "0" } else { "-1" }
                    on:click=move |_| tab.set(t)
                    on:keydown=move |e| {
                        let i = Tab::ALL.iter().position(|x| *x == t).unwrap_or(0);
                        let next = match e.key().as_str() {
                            "ArrowRight" => Some(Tab::ALL[(i + 1) % Tab::ALL.len()]),
                            "ArrowLeft" => Some(Tab::ALL[(i + Tab::ALL.len() - 1) % Tab::ALL.len()]),
                            _ => None,
                        };
                        if let Some(next) = next {
                            tab.set(next);
                            focus_tab(&e, next);
                        }
                    }
                >
                    {t.title()}
                    <span class="viz-count">{move || models.with(|m| t.count(m))}</span>
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="viz" class:empty=move || models.with(|m| *m == Models::default())>
            <div class="viz-tabs" role="tablist" aria-label="What happened inside">{tabs}</div>
            <p class="viz-note" data-testid="trace-dropped" hidden=move || dropped.get() == 0>
                {move || format!(
                    "The run recorded more than the lab keeps: these views show its first events; {} later ones are left out.",
                    dropped.get()
                )}
            </p>
            <div class="viz-panel" role="tabpanel" data-panel=move || tab.get().id()>
                {move || match tab.get() {
                    Tab::Transfers => pipeline::view(transfers, lens).into_any(),
                    Tab::Graph => graph::view(graph, lens).into_any(),
                    Tab::Memory => memory::view(memory, lens).into_any(),
                    Tab::Timeline => timeline::view(timeline, lens).into_any(),
                }}
            </div>
        </div>
    }
}

/// Moves the keyboard focus to tab `next` of the tab list `event` happened in.
fn focus_tab(event: &web_sys::KeyboardEvent, next: Tab) {
    let target = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.parent_element())
        .and_then(|list| {
            list.query_selector(&format!("[data-tab={}]", next.id()))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = target {
        let _ = button.focus();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use tolab_cells::Device;
    use tolab_cells::trace::{EventKind, SourceSpan, TraceEvent};

    pub fn span(cell: &str, line: u32) -> SourceSpan {
        SourceSpan {
            cell: cell.into(),
            line,
            column: 1,
            end_line: line,
            end_column: 2,
        }
    }

    pub fn event(seq: u64, span: Option<SourceSpan>, kind: EventKind) -> TraceEvent {
        TraceEvent {
            seq,
            device: None,
            span,
            kind,
        }
    }

    pub fn event_on(
        seq: u64,
        device: Device,
        span: Option<SourceSpan>,
        kind: EventKind,
    ) -> TraceEvent {
        TraceEvent {
            seq,
            device: Some(device),
            span,
            kind,
        }
    }
}
