//! What flows between the evaluator's parts: a call's arguments ([`Args`]) and why a block
//! stopped early ([`Flow`]). A leaf: every part of the language and every binding imports it, and
//! it imports only values and exceptions.

use std::future::Future;
use std::pin::Pin;

use super::exception::PyException;
use super::value::Value;

/// Why a block stopped early.
pub enum Flow {
    /// Boxed: every `Result` an evaluation returns carries a `Flow`, so it stays small.
    Error(Box<PyException>),
    Return(Value),
    Break,
    Continue,
}

impl From<PyException> for Flow {
    fn from(e: PyException) -> Flow {
        Flow::Error(Box::new(e))
    }
}

impl From<tolab_engine::Error> for Flow {
    fn from(e: tolab_engine::Error) -> Flow {
        Flow::Error(Box::new(e.into()))
    }
}

pub type Eval<'a, T> = Pin<Box<dyn Future<Output = Result<T, Flow>> + 'a>>;

/// A call's arguments: positional, then keyword.
#[derive(Default, Clone)]
pub struct Args {
    pub positional: Vec<Value>,
    pub keywords: Vec<(String, Value)>,
}

impl Args {
    pub fn positional(values: Vec<Value>) -> Args {
        Args {
            positional: values,
            keywords: Vec::new(),
        }
    }

    pub fn keyword(&self, name: &str) -> Option<&Value> {
        self.keywords
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The argument at `index` or named `name`.
    pub fn get(&self, index: usize, name: &str) -> Option<&Value> {
        self.positional.get(index).or_else(|| self.keyword(name))
    }
}
