//! Stepping through a cell: before each statement it is about to run — at any depth, in loop
//! bodies and in the functions it calls — a stepped cell passes a [`Gate`]. Each Step request
//! lets one statement through; the cell then parks at the next gate, its future kept alive by
//! the runtime between requests, until the next Step (or a cancel, which ends it with
//! `KeyboardInterrupt` so that its `with` blocks and `finally` clauses still run).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde::{Deserialize, Serialize};

/// A statement a stepped cell is about to run: the cell it is written in and its line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub cell: String,
    pub line: usize,
}

/// Shared by a stepped cell (which waits at it) and the runtime (which lets it through).
#[derive(Debug, Default)]
pub struct Gate {
    /// Statements the cell may still start before it parks.
    permits: Cell<u32>,
    cancelled: Cell<bool>,
    /// Where the cell waits, while it waits.
    parked: RefCell<Option<Position>>,
    /// The cell's task, woken by a permit or a cancel.
    cell_waker: RefCell<Option<Waker>>,
    /// The runtime's, woken when the cell parks.
    runtime_waker: RefCell<Option<Waker>>,
}

/// Why a stepped cell may not go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl Gate {
    /// Lets the next statement through.
    pub fn permit(&self) {
        self.permits.set(self.permits.get() + 1);
        self.wake_cell();
    }

    /// Ends the stepped cell at its gate.
    pub fn cancel(&self) {
        self.cancelled.set(true);
        self.wake_cell();
    }

    fn wake_cell(&self) {
        if let Some(waker) = self.cell_waker.borrow_mut().take() {
            waker.wake();
        }
    }

    /// What the cell awaits before the statement at `at`.
    pub fn pass(self: &Rc<Self>, at: Position) -> Pass {
        Pass {
            gate: self.clone(),
            at: Some(at),
        }
    }

    /// Resolves when the cell waits at the gate, with where it waits.
    pub fn parked(self: &Rc<Self>) -> Parked {
        Parked { gate: self.clone() }
    }
}

/// The cell's wait at the gate.
pub struct Pass {
    gate: Rc<Gate>,
    at: Option<Position>,
}

impl Future for Pass {
    type Output = Result<(), Cancelled>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let gate = self.gate.clone();
        if gate.cancelled.get() {
            gate.parked.take();
            return Poll::Ready(Err(Cancelled));
        }
        if gate.permits.get() > 0 {
            gate.permits.set(gate.permits.get() - 1);
            gate.parked.take();
            return Poll::Ready(Ok(()));
        }
        if let Some(at) = self.at.take() {
            *gate.parked.borrow_mut() = Some(at);
            if let Some(waker) = gate.runtime_waker.borrow_mut().take() {
                waker.wake();
            }
        }
        *gate.cell_waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The runtime's wait for the cell to park.
pub struct Parked {
    gate: Rc<Gate>,
}

impl Future for Parked {
    type Output = Position;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Position> {
        match &*self.gate.parked.borrow() {
            Some(at) if self.gate.permits.get() == 0 => Poll::Ready(at.clone()),
            _ => {
                *self.gate.runtime_waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
