//! The lab's Python: cells parsed with Astral's parser and run by an async tree-walking
//! evaluator against the engine. One [`Interpreter`] is one notebook: its cells share a
//! namespace and an engine session.

mod attributes;
mod builtins;
mod context;
mod convert;
mod data;
mod eval;
mod exception;
mod iteration;
mod modules;
mod objects;
mod operators;
mod source;
mod stdlib;
mod value;

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use tolab_engine::Session;

pub use eval::Interpreter;
pub use exception::{ExcType, PyException};
use source::CellSource;

/// What running a cell produced, for the UI to show and animate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Everything the cell printed, in order.
    pub stdout: String,
    /// The repr of a trailing expression's value, as a notebook shows it.
    pub value: Option<String>,
    /// The uncaught exception's traceback, as Python prints it.
    pub error: Option<String>,
    /// The warnings PyTorch raised while the cell ran.
    pub warnings: Vec<String>,
}

/// The statements a cell may run before it is stopped (an infinite loop ends with an error).
const STEP_BUDGET: u64 = 5_000_000;

impl Interpreter {
    /// A fresh notebook over `session`.
    pub fn notebook(session: Session) -> Interpreter {
        Interpreter::new(session)
    }

    /// Where `torch.save` writes and `torch.load` reads (in memory unless set: the browser keeps
    /// a lesson's files there; the CLI uses the working directory).
    pub fn with_files(mut self, files: Rc<dyn tolab_engine::serialization::Files>) -> Interpreter {
        self.files = files;
        self
    }

    /// Runs one cell (`name` is how tracebacks call it, such as `<cell 1>`).
    pub async fn run_cell(&mut self, name: &str, text: &str) -> RunRecord {
        let cell = Rc::new(CellSource::new(name, text));
        self.steps_left = STEP_BUDGET;
        let outcome = match cell.parse() {
            Ok(module) => self.run_module(cell.clone(), &module.body).await,
            Err(e) => Err(e),
        };
        let stdout = std::mem::take(&mut self.stdout);
        let warnings = self.session().take_warnings();
        match outcome {
            Ok(value) => RunRecord {
                stdout,
                value: value.map(|v| v.repr()),
                error: None,
                warnings,
            },
            Err(e) => RunRecord {
                stdout,
                value: None,
                error: Some(e.traceback()),
                warnings,
            },
        }
    }
}
