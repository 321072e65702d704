//! `await`, `async for` and `async with`'s iteration half: the protocols coroutines are
//! used through. A coroutine is a generator underneath (see [`super::generator`]); the event
//! loop that drives one is Python, in `stdlib/py/asyncio.py`.

use super::args::Flow;
use super::exception::{ExcType, PyException};
use super::generator::{Kind, stop_async_iteration};
use super::interpreter::Interpreter;
use super::value::Value;

impl Interpreter {
    /// `await value` in a coroutine's body: what the awaitable returns, once whatever drives
    /// the coroutine has resumed it through every suspension of the awaitable.
    pub(crate) async fn await_value(&mut self, value: Value) -> Result<Value, Flow> {
        let innermost = self
            .stack
            .iter()
            .rev()
            .find(|a| a.generator.is_some() || !a.is_comprehension())
            .and_then(|a| a.generator.as_ref().map(|link| link.kind));
        if !matches!(innermost, Some(Kind::Coroutine | Kind::AsyncGenerator)) {
            let message = match self.stack.len() {
                1 => "'await' outside function",
                _ => "'await' outside async function",
            };
            return Err(PyException::new(ExcType::SyntaxError, message).into());
        }
        let awaitable = match &value {
            Value::Instance(i) if i.class.lookup("__await__").is_some() => {
                let iterator = Box::pin(self.call_dunder(&value, "__await__", Vec::new())).await?;
                match &iterator {
                    Value::Coroutine(g) if g.kind() != Kind::AsyncGenerator => g.clone(),
                    Value::Iterator(_) | Value::Instance(_)
                        if iterator
                            .dunder_class()
                            .is_none_or(|c| c.lookup("__next__").is_some()) =>
                    {
                        return self.yield_from(&iterator).await;
                    }
                    other => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "__await__() returned non-iterator of type '{}'",
                                other.type_name()
                            ),
                        )
                        .into());
                    }
                }
            }
            Value::Coroutine(g) if g.kind() != Kind::AsyncGenerator => g.clone(),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "object {} can't be used in 'await' expression",
                        other.type_name()
                    ),
                )
                .into());
            }
        };
        self.delegate(&awaitable).await
    }

    /// `async for`'s iterator of `value` (its `__aiter__()`).
    pub(crate) async fn async_iter(&mut self, value: &Value) -> Result<Value, Flow> {
        match value {
            Value::Coroutine(g) if g.kind() == Kind::AsyncGenerator => Ok(value.clone()),
            Value::Instance(i) if i.class.lookup("__aiter__").is_some() => {
                Box::pin(self.call_dunder(value, "__aiter__", Vec::new())).await
            }
            other => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'async for' requires an object with __aiter__ method, got {}",
                    other.type_name()
                ),
            )
            .into()),
        }
    }

    /// The next item of an `async for` (its iterator's `__anext__()`, awaited); `None` at
    /// `StopAsyncIteration`.
    pub(crate) async fn async_next(&mut self, iterator: &Value) -> Result<Option<Value>, Flow> {
        let awaitable = match iterator {
            Value::Coroutine(g) if g.kind() == Kind::AsyncGenerator => {
                self.async_generator_step(g, None, false)?
            }
            Value::Instance(i) if i.class.lookup("__anext__").is_some() => {
                Box::pin(self.call_dunder(iterator, "__anext__", Vec::new())).await?
            }
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'async for' received an object from __aiter__ that does not implement \
                         __anext__: {}",
                        other.type_name()
                    ),
                )
                .into());
            }
        };
        match Box::pin(self.await_value(awaitable)).await {
            Ok(item) => Ok(Some(item)),
            Err(Flow::Error(e)) if e.caught_by(&Value::ExcClass(stop_async_iteration())) => {
                Ok(None)
            }
            Err(other) => Err(other),
        }
    }
}
