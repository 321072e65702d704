//! The trace: what happened inside the engine, as a list of events the UI animates.
//!
//! Every transfer step, allocation, free, kernel, copy, sync, graph node, graph break, warning and
//! error is one [`TraceEvent`], numbered in order, tied to a device where there is one, and to the
//! source line the cell runtime was running (it sets [`Tracer::set_span`]). Recording costs one
//! branch when tracing is off: events are built by closures that only run when it is on.

use serde::{Deserialize, Serialize};

use crate::device::Device;

/// A place in a learner's cell: the cell's name (as the run request named it: a statement of a
/// function defined in an earlier cell belongs to that cell), 1-based line and column, end
/// exclusive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSpan {
    pub cell: std::rc::Rc<str>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Position in the session's trace, from 0.
    pub seq: u64,
    pub device: Option<Device>,
    /// The cell source being run when the event happened, when the runtime knows it.
    pub span: Option<SourceSpan>,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// The seven steps of a transfer (DESIGN.md, "The seven steps of a transfer").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransferStep {
    /// 1. Parse and normalise the target device (and dtype).
    ParseDevice,
    /// 2. Check the target supports the dtype, the index exists, the context allows it.
    CheckCompatibility,
    /// 3. Allocate on the target through its allocator.
    Allocate,
    /// 4. Add the `ToCopyBackward0` node when the source takes part in autograd.
    RebindAutograd,
    /// 5. Carry over metadata: dtype, shape, strides, contiguity, pinned flag.
    SyncMetadata,
    /// 6. Hand back a new tensor handle; the source stays alive and unchanged.
    HandBack,
    /// 7. Run the copy under a device guard and restore the previous current device.
    DeviceGuard,
}

impl TransferStep {
    pub const ALL: [TransferStep; 7] = [
        TransferStep::ParseDevice,
        TransferStep::CheckCompatibility,
        TransferStep::Allocate,
        TransferStep::RebindAutograd,
        TransferStep::SyncMetadata,
        TransferStep::HandBack,
        TransferStep::DeviceGuard,
    ];

    /// 1 to 7.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    pub fn title(self) -> &'static str {
        match self {
            TransferStep::ParseDevice => "parse the device",
            TransferStep::CheckCompatibility => "check compatibility",
            TransferStep::Allocate => "allocate on the target",
            TransferStep::RebindAutograd => "rebind the autograd graph",
            TransferStep::SyncMetadata => "sync metadata",
            TransferStep::HandBack => "hand back a new tensor",
            TransferStep::DeviceGuard => "copy under a device guard",
        }
    }
}

/// Why a tensor's history stops being recorded (DESIGN.md, "The app": breaks drawn as cuts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakCause {
    /// `t.detach()`: the same data, no history.
    Detach,
    /// `t.data`: the same data, no history, and in-place changes autograd cannot see.
    Data,
    /// `t.item()`: a Python number, outside autograd.
    Item,
    /// `t.tolist()`: Python numbers, outside autograd.
    Tolist,
    /// An op on it ran under `torch.no_grad()` (or `set_grad_enabled(False)`): not recorded.
    NoGrad,
}

impl BreakCause {
    /// Why the graph stops there, in a sentence the UI shows on hover.
    pub fn explanation(self) -> &'static str {
        match self {
            BreakCause::Detach => {
                "detach() returns a tensor sharing the data but with no grad_fn: nothing computed from it reaches the graph"
            }
            BreakCause::Data => {
                ".data returns the same data with no history, and autograd cannot see in-place changes made through it"
            }
            BreakCause::Item => {
                ".item() returns a Python number: anything computed from it is a constant to autograd"
            }
            BreakCause::Tolist => {
                ".tolist() returns Python numbers: a tensor rebuilt from them has no history"
            }
            BreakCause::NoGrad => {
                "under torch.no_grad() ops are not recorded: the result has no grad_fn"
            }
        }
    }
}

/// Which backend actually did a piece of work: the UI must never show CPU work as GPU work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    Cpu,
    /// The CPU backend doing the work of a GPU device (no GPU kernel for the op yet, or no adapter).
    CpuStandIn,
    /// Float64 work of a GPU device done on the host: emulated on the host, because this adapter
    /// has no float64 (WGSL in browsers never has it).
    HostFloat64,
    Gpu,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// One step of a transfer: what it decided, or why it failed.
    TransferStep {
        transfer: u64,
        step: TransferStep,
        ok: bool,
        detail: String,
    },
    /// Memory taken from the device's allocator for a tensor's storage.
    Alloc {
        bytes: u64,
        block_size: u64,
        new_segment: u64,
        allocated: u64,
        reserved: u64,
    },
    /// A storage freed (its last tensor gone): the block returns to the allocator's cache.
    Free {
        block_size: u64,
        allocated: u64,
        reserved: u64,
    },
    /// The allocator released cached segments (`empty_cache`, or a retry before out-of-memory).
    Release {
        bytes: u64,
        reserved: u64,
    },
    /// An operation ran.
    Kernel {
        op: String,
        backend: Backend,
    },
    /// Bytes copied between devices.
    Copy {
        from: Device,
        to: Device,
        bytes: u64,
        non_blocking: bool,
        backend: Backend,
    },
    /// The host waited for a device.
    Sync {
        reason: String,
        waited_us: u64,
    },
    /// An autograd node was created: an op's `grad_fn`, or a leaf's `AccumulateGrad`. The event's
    /// device is the one its gradient flows back to (the inputs', the leaf's).
    GraphNode {
        node: u64,
        name: String,
        /// `next_functions`, as node ids (`None` where that input needs no gradient).
        next: Vec<Option<u64>>,
        /// For an `AccumulateGrad`: the leaf it fills, as `shape dtype` (`[3, 2] float32`).
        leaf: Option<String>,
    },
    /// A tensor that took part in autograd was used in a way the graph does not follow.
    GraphBreak {
        /// The node of the tensor cut off (its `grad_fn`, or its leaf's `AccumulateGrad`), when
        /// the graph has one.
        from: Option<u64>,
        cause: BreakCause,
    },
    /// `backward()` started from `root` (the output's `grad_fn`; `None` for a leaf).
    Backward {
        root: Option<u64>,
    },
    /// A leaf's `.grad` received a gradient through its `AccumulateGrad` node.
    GradAccumulated {
        node: u64,
    },
    /// A (simulated) DataLoader worker process started a piece of work: what follows, until its
    /// `WorkerEnd`, ran in that worker.
    WorkerStart {
        worker: usize,
    },
    WorkerEnd {
        worker: usize,
    },
    /// A collective completed: every rank had called it.
    Collective {
        op: String,
        ranks: usize,
    },
    /// A GPU kernel's device-side assert fired (its message, as CUDA prints it to stderr); the
    /// error itself surfaces at the next sync point.
    DeviceAssert {
        message: String,
    },
    /// An allocation failed: the device's allocator could not reserve `tried` bytes within its
    /// `capacity`, even after releasing its cache.
    OutOfMemory {
        tried: u64,
        capacity: u64,
        message: String,
    },
    Warning {
        message: String,
    },
    Error {
        message: String,
    },
}

/// Collects events while enabled, up to a limit per run: a loop that runs for minutes must not
/// fill memory with events no view can show. Past the limit events are counted, not kept.
#[derive(Debug)]
pub struct Tracer {
    enabled: bool,
    next_seq: u64,
    span: Option<SourceSpan>,
    events: Vec<TraceEvent>,
    /// The most events one run keeps (those taken before its end included).
    limit: usize,
    /// Events kept in this run so far, and events past the limit.
    kept: usize,
    dropped: u64,
}

impl Default for Tracer {
    fn default() -> Self {
        Tracer {
            enabled: false,
            next_seq: 0,
            span: None,
            events: Vec::new(),
            limit: usize::MAX,
            kept: 0,
            dropped: 0,
        }
    }
}

/// Where the trace stood, to roll a call that runs again back to it ([`Tracer::rewind`]).
#[derive(Debug, Clone, Copy)]
pub struct TraceMark {
    held: usize,
    kept: usize,
    dropped: u64,
    next_seq: u64,
}

impl Tracer {
    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The source the following events belong to.
    pub fn set_span(&mut self, span: Option<SourceSpan>) {
        self.span = span;
    }

    /// The source the events recorded now belong to.
    pub fn span(&self) -> Option<SourceSpan> {
        self.span.clone()
    }

    /// Records an event; `kind` is only built when tracing is on.
    pub fn record(&mut self, device: Option<Device>, kind: impl FnOnce() -> EventKind) {
        self.record_at(self.span.clone(), device, kind);
    }

    /// Records an event that belongs to `span` rather than to the statement running now (a
    /// device-side assert found at a sync point, traced at the line that launched its kernel).
    pub fn record_at(
        &mut self,
        span: Option<SourceSpan>,
        device: Option<Device>,
        kind: impl FnOnce() -> EventKind,
    ) {
        if !self.enabled {
            return;
        }
        if self.kept >= self.limit {
            self.dropped += 1;
            return;
        }
        let event = TraceEvent {
            seq: self.next_seq,
            device,
            span,
            kind: kind(),
        };
        self.next_seq += 1;
        self.kept += 1;
        self.events.push(event);
    }

    /// The most events one run keeps from now on.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// Ends a run's count: how many of its events were past the limit (and not kept).
    pub fn end_run(&mut self) -> u64 {
        self.kept = 0;
        std::mem::take(&mut self.dropped)
    }

    /// The events recorded after the first `from` of those not yet taken.
    pub fn since(&self, from: usize) -> &[TraceEvent] {
        self.events.get(from..).unwrap_or_default()
    }

    /// How many events are held (not yet taken).
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Where the trace stands now.
    pub fn mark(&self) -> TraceMark {
        TraceMark {
            held: self.events.len(),
            kept: self.kept,
            dropped: self.dropped,
            next_seq: self.next_seq,
        }
    }

    /// Forgets the events recorded since `mark`, and their numbers.
    pub fn rewind(&mut self, mark: TraceMark) {
        self.events.truncate(mark.held);
        self.kept = mark.kept;
        self.dropped = mark.dropped;
        self.next_seq = mark.next_seq;
    }

    /// Hands over the events recorded so far (numbering continues).
    pub fn take(&mut self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_keeps_events_up_to_its_limit_and_counts_the_rest_across_takes() {
        let mut tracer = Tracer::default();
        tracer.set_enabled(true);
        tracer.set_limit(3);
        let warn = || EventKind::Warning {
            message: String::new(),
        };
        tracer.record(None, warn);
        tracer.record(None, warn);
        assert_eq!(tracer.take().len(), 2);
        let mark = tracer.mark();
        for _ in 0..4 {
            tracer.record(None, warn);
        }
        // A call run again forgets what it recorded, counts included.
        tracer.rewind(mark);
        for _ in 0..5 {
            tracer.record(None, warn);
        }
        assert_eq!(tracer.take().len(), 1);
        assert_eq!(tracer.end_run(), 4);
        tracer.record(None, warn);
        assert_eq!(tracer.take().len(), 1, "a new run starts a new count");
    }

    #[test]
    fn nothing_is_built_while_tracing_is_off() {
        let mut tracer = Tracer::default();
        tracer.record(None, || unreachable!("not built when off"));
        assert!(tracer.take().is_empty());
    }

    #[test]
    fn events_are_numbered_and_carry_the_current_span() {
        let mut tracer = Tracer::default();
        tracer.set_enabled(true);
        let span = SourceSpan {
            cell: "<cell 1>".into(),
            line: 3,
            column: 1,
            end_line: 3,
            end_column: 12,
        };
        tracer.set_span(Some(span.clone()));
        tracer.record(Some(Device::cuda(0)), || EventKind::Warning {
            message: "w".into(),
        });
        tracer.record(None, || EventKind::Error {
            message: "e".into(),
        });
        let events = tracer.take();
        assert_eq!(events.iter().map(|e| e.seq).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(events[0].span, Some(span));
        let json = serde_json::to_value(&events[0]).unwrap();
        assert_eq!(json["type"], "warning");
        assert_eq!(json["device"], "cuda:0");
    }
}
