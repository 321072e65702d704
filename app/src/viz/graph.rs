//! The autograd graph: nodes named as PyTorch names them, leaves' `AccumulateGrad`, edges as
//! `next_functions` (the way gradients flow back), nodes coloured by the device their gradient
//! lives on; the places the learner's code left the graph (`detach`, `.data`, `.item()`,
//! `.tolist()`, ops under `no_grad`) drawn as cuts with the reason; after `backward()`, which
//! leaves received a gradient and which did not.

use std::collections::HashMap;

use leptos::prelude::*;
use tolab_cells::Device;
use tolab_cells::trace::{BreakCause, EventKind, TraceEvent};

use super::{Lens, canvas, device_class, line_in};

/// The most nodes drawn: a training loop builds a graph per step, and the latest ones matter.
pub const MAX_NODES: usize = 48;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// `(from, to)` as indices into `nodes`: `to` is one of `from`'s `next_functions`.
    pub edges: Vec<(usize, usize)>,
    pub cuts: Vec<Cut>,
    /// Nodes left out, the oldest first.
    pub hidden: usize,
    /// Whether `backward()` ran in this run.
    pub backward_ran: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: u64,
    pub name: String,
    pub device: Option<Device>,
    /// For an `AccumulateGrad`: the leaf's shape and dtype.
    pub leaf: Option<String>,
    pub line: Option<u32>,
    /// Columns from the leaves (0) towards the output.
    pub column: usize,
    pub row: usize,
    /// For a leaf after `backward()`: whether its `.grad` received a gradient.
    pub received: Option<bool>,
}

/// Where the learner's code left the graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The node the tensor's history hangs from, as an index into `nodes`, when drawn.
    pub node: Option<usize>,
    pub cause: BreakCause,
    pub line: Option<u32>,
}

impl Node {
    pub fn is_leaf(&self) -> bool {
        self.name == "AccumulateGrad"
    }
}

/// The graph `trace` built, its last [`MAX_NODES`] nodes laid out in columns.
pub fn graph(trace: &[TraceEvent], cell: &str) -> Graph {
    let mut all: Vec<(Node, Vec<u64>)> = Vec::new();
    let mut breaks = Vec::new();
    let mut backward_at: Option<u64> = None;
    let mut received: Vec<u64> = Vec::new();
    for event in trace {
        match &event.kind {
            EventKind::GraphNode {
                node,
                name,
                next,
                leaf,
            } => all.push((
                Node {
                    id: *node,
                    name: name.clone(),
                    device: event.device,
                    leaf: leaf.clone(),
                    line: line_in(cell, event),
                    column: 0,
                    row: 0,
                    received: None,
                },
                next.iter().flatten().copied().collect(),
            )),
            EventKind::GraphBreak { from, cause } => {
                breaks.push((*from, *cause, line_in(cell, event)));
            }
            EventKind::Backward { .. } => backward_at = Some(event.seq),
            EventKind::GradAccumulated { node } => received.push(*node),
            _ => {}
        }
    }
    let hidden = all.len().saturating_sub(MAX_NODES);
    let shown = &all[hidden..];
    let index: HashMap<u64, usize> = shown
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.id, i))
        .collect();
    let mut nodes: Vec<Node> = Vec::with_capacity(shown.len());
    let mut edges = Vec::new();
    let mut rows: Vec<usize> = Vec::new();
    for (i, (node, next)) in shown.iter().enumerate() {
        let mut node = node.clone();
        // A node's inputs were all made before it, so one pass in order lays out the columns.
        node.column = next
            .iter()
            .filter_map(|id| index.get(id))
            .map(|&j| nodes[j].column + 1)
            .max()
            .unwrap_or(0);
        if rows.len() <= node.column {
            rows.resize(node.column + 1, 0);
        }
        node.row = rows[node.column];
        rows[node.column] += 1;
        if node.is_leaf() && backward_at.is_some() {
            node.received = Some(received.contains(&node.id));
        }
        edges.extend(next.iter().filter_map(|id| index.get(id)).map(|&j| (i, j)));
        nodes.push(node);
    }
    let cuts = breaks
        .into_iter()
        .map(|(from, cause, line)| Cut {
            node: from.and_then(|id| index.get(&id).copied()),
            cause,
            line,
        })
        .collect();
    Graph {
        nodes,
        edges,
        cuts,
        hidden,
        backward_ran: backward_at.is_some(),
    }
}

/// What the learner called to leave the graph, as the cut's label.
fn cut_label(cause: BreakCause) -> &'static str {
    match cause {
        BreakCause::Detach => "detach()",
        BreakCause::Data => ".data",
        BreakCause::Item => ".item()",
        BreakCause::Tolist => ".tolist()",
        BreakCause::NoGrad => "no_grad",
    }
}

const NODE_W: f64 = 168.0;
const NODE_H: f64 = 40.0;
const COLUMN_GAP: f64 = 64.0;
const ROW_GAP: f64 = 30.0;
const PAD: f64 = 12.0;

fn place(node: &Node) -> (f64, f64) {
    (
        PAD + node.column as f64 * (NODE_W + COLUMN_GAP),
        PAD + node.row as f64 * (NODE_H + ROW_GAP),
    )
}

/// Why a node matters, for its hover text.
fn explain(node: &Node, graph: &Graph) -> String {
    let device = node
        .device
        .map(|d| format!(" Its gradient lives on {d}."))
        .unwrap_or_default();
    let what = match (node.name.as_str(), node.received) {
        ("AccumulateGrad", Some(true)) => {
            "A leaf's AccumulateGrad: backward() added a gradient to its .grad.".to_owned()
        }
        ("AccumulateGrad", Some(false)) => {
            "A leaf's AccumulateGrad that backward() did not reach: its .grad is unchanged."
                .to_owned()
        }
        ("AccumulateGrad", None) => {
            "A leaf's AccumulateGrad: backward() will add into this leaf's .grad.".to_owned()
        }
        ("ToCopyBackward0", _) => {
            let to_leaf = graph
                .edges
                .iter()
                .filter(|(from, _)| graph.nodes.get(*from) == Some(node))
                .any(|&(_, to)| graph.nodes[to].is_leaf());
            let mut text =
                "Made by .to(): the gradient is copied back to the source's device.".to_owned();
            if to_leaf {
                text.push_str(" The tensor .to() returned is not a leaf: its .grad stays None, and the optimizer must get the source (or a tensor created on the device).");
            }
            text
        }
        (name, _) => format!("{name}: computes the gradients of its inputs in backward()."),
    };
    what + &device
}

pub fn view(graph: Signal<Graph>, lens: Lens) -> impl IntoView {
    let drawing = move || {
        let graph = graph.get();
        let columns = graph.nodes.iter().map(|n| n.column + 1).max().unwrap_or(0);
        let rows = graph
            .nodes
            .iter()
            .map(|n| n.row + 1)
            .max()
            .unwrap_or(0)
            .max(1);
        let width = 2.0 * PAD + columns as f64 * (NODE_W + COLUMN_GAP) - COLUMN_GAP;
        // Room under the last row for the cuts hanging from it.
        let height = 2.0 * PAD + rows as f64 * (NODE_H + ROW_GAP);
        let edges = graph
            .edges
            .iter()
            .map(|&(from, to)| {
                let (fx, fy) = place(&graph.nodes[from]);
                let (tx, ty) = place(&graph.nodes[to]);
                // From the node's left side back to its input's right side: the way gradients flow.
                let (x1, y1, x2, y2) = (fx, fy + NODE_H / 2.0, tx + NODE_W, ty + NODE_H / 2.0);
                let mid = (x1 + x2) / 2.0;
                view! {
                    <path
                        class="graph-edge"
                        d=format!("M{x1:.1},{y1:.1} C{mid:.1},{y1:.1} {mid:.1},{y2:.1} {x2:.1},{y2:.1}")
                        marker-end="url(#graph-arrow)"
                    />
                }
            })
            .collect_view();
        let mut stacked: HashMap<usize, usize> = HashMap::new();
        let cuts = graph
            .cuts
            .iter()
            .filter_map(|cut| {
                let at = cut.node?;
                let (x, y) = place(&graph.nodes[at]);
                // Below the node it hangs from, side by side when there are several.
                let nth = stacked.entry(at).or_default();
                let x1 = x + 16.0 + *nth as f64 * 84.0;
                *nth += 1;
                let (y1, y2) = (y + NODE_H, y + NODE_H + ROW_GAP - 4.0);
                let line = cut.line;
                Some(view! {
                    <g
                        class="graph-cut"
                        class:linked=move || lens.is_hovered(line)
                        data-cause=format!("{:?}", cut.cause).to_lowercase()
                        tabindex="0"
                        role="button"
                        aria-label=format!("{}: {}", cut_label(cut.cause), cut.cause.explanation())
                        on:click=move |_| lens.pick(line)
                        on:keydown=lens.key(line)
                    >
                        <title>{cut.cause.explanation()}</title>
                        <line x1=x1 y1=y1 x2=x1 y2=y2/>
                        <text x=x1 + 4.0 y=y2 - 3.0>{format!("✂ {}", cut_label(cut.cause))}</text>
                    </g>
                })
            })
            .collect_view();
        let nodes = graph
            .nodes
            .iter()
            .map(|node| {
                let (x, y) = place(node);
                let line = node.line;
                let subtitle = match (&node.leaf, node.received) {
                    (Some(leaf), Some(true)) => format!("leaf {leaf} · .grad ✓"),
                    (Some(leaf), Some(false)) => format!("leaf {leaf} · no grad"),
                    (Some(leaf), None) => format!("leaf {leaf}"),
                    (None, _) => node.device.map(|d| d.to_string()).unwrap_or_default(),
                };
                let label = format!("{} {subtitle}", node.name);
                let class = format!(
                    "graph-node {}{}{}",
                    node.device.map(device_class).unwrap_or("dev-none"),
                    if node.is_leaf() { " leaf" } else { "" },
                    match node.received {
                        Some(true) => " received",
                        Some(false) => " unreached",
                        None => "",
                    }
                );
                view! {
                    <g
                        class=class
                        class:linked=move || lens.is_hovered(line)
                        data-name=node.name.clone()
                        tabindex="0"
                        role="button"
                        aria-label=label
                        on:click=move |_| lens.pick(line)
                        on:keydown=lens.key(line)
                    >
                        <title>{explain(node, &graph)}</title>
                        <rect x=x y=y width=NODE_W height=NODE_H rx="7"/>
                        <text x=x + 10.0 y=y + 17.0 class="node-name">{node.name.clone()}</text>
                        <text x=x + 10.0 y=y + 32.0 class="node-detail">{subtitle}</text>
                    </g>
                }
            })
            .collect_view();
        let arrow = view! {
            <defs>
                <marker id="graph-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z"/>
                </marker>
            </defs>
        };
        canvas(
            "graph-canvas",
            "The autograd graph: arrows point along next_functions, the way gradients flow back",
            (width, height),
            (arrow, edges, nodes, cuts),
        )
    };
    let notes = move || {
        let graph = graph.get();
        let mut notes: Vec<String> = Vec::new();
        if graph.hidden > 0 {
            notes.push(format!(
                "Showing the latest {} nodes; {} earlier ones are left out.",
                graph.nodes.len(),
                graph.hidden
            ));
        }
        if graph.backward_ran {
            let leaves: Vec<&Node> = graph.nodes.iter().filter(|n| n.is_leaf()).collect();
            let filled = leaves.iter().filter(|n| n.received == Some(true)).count();
            notes.push(format!(
                "backward() ran: {filled} of {} leaves shown received a gradient.",
                leaves.len()
            ));
        }
        notes
            .into_iter()
            .map(|n| view! { <li>{n}</li> })
            .collect_view()
    };
    let cut_list = move || {
        graph
            .get()
            .cuts
            .into_iter()
            .map(|cut| {
                let line = cut.line;
                view! {
                    <li class="cut-item" class:linked=move || lens.is_hovered(line)>
                        <button type="button" class="link" on:click=move |_| lens.pick(line)>
                            {line.map(|l| format!("line {l}")).unwrap_or_else(|| "elsewhere".into())}
                        </button>
                        {format!(" ✂ {}: {}", cut_label(cut.cause), cut.cause.explanation())}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <div class="graph">
            <Show
                when=move || graph.with(|g| !g.nodes.is_empty() || !g.cuts.is_empty())
                fallback=|| view! { <p class="viz-empty">"No autograd graph: no tensor in this run requires grad."</p> }
            >
                <div class="graph-scroll">{drawing}</div>
                <ul class="graph-notes">{notes}</ul>
                <ul class="graph-cuts" aria-label="Where the graph breaks">{cut_list}</ul>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viz::tests::{event, span};

    fn node(node: u64, name: &str, next: &[u64]) -> EventKind {
        EventKind::GraphNode {
            node,
            name: name.into(),
            next: next.iter().map(|&n| Some(n)).collect(),
            leaf: (name == "AccumulateGrad").then(|| "[3] float32".into()),
        }
    }

    #[test]
    fn columns_follow_next_functions_and_backward_marks_which_leaves_got_gradients() {
        let at = |line| Some(span("<cell 1>", line));
        let trace = vec![
            event(0, at(1), node(4, "AccumulateGrad", &[])),
            event(1, at(2), node(5, "AccumulateGrad", &[])),
            event(2, at(3), node(6, "ToCopyBackward0", &[4])),
            event(3, at(4), node(7, "MulBackward0", &[6, 6])),
            event(
                4,
                at(5),
                EventKind::GraphBreak {
                    from: Some(5),
                    cause: BreakCause::Detach,
                },
            ),
            event(5, at(6), EventKind::Backward { root: Some(7) }),
            event(6, at(6), EventKind::GradAccumulated { node: 4 }),
        ];
        let graph = graph(&trace, "<cell 1>");
        let columns: Vec<usize> = graph.nodes.iter().map(|n| n.column).collect();
        assert_eq!(columns, [0, 0, 1, 2]);
        assert_eq!(graph.nodes[1].row, 1);
        assert_eq!(graph.edges, [(2, 0), (3, 2), (3, 2)]);
        assert_eq!(graph.nodes[0].received, Some(true));
        assert_eq!(graph.nodes[1].received, Some(false));
        assert_eq!(graph.nodes[2].received, None);
        assert_eq!(graph.cuts[0].node, Some(1));
        assert_eq!(graph.cuts[0].line, Some(5));
        assert!(explain(&graph.nodes[2], &graph).contains("not a leaf"));
    }

    #[test]
    fn only_the_latest_nodes_are_drawn() {
        let trace: Vec<TraceEvent> = (0..MAX_NODES as u64 + 5)
            .map(|i| event(i, None, node(i, "AddBackward0", &[i.saturating_sub(1)])))
            .collect();
        let graph = graph(&trace, "<cell 1>");
        assert_eq!(graph.nodes.len(), MAX_NODES);
        assert_eq!(graph.hidden, 5);
        assert_eq!(graph.nodes[0].column, 0);
        assert_eq!(graph.edges.len(), MAX_NODES - 1);
    }
}
