//! `with` blocks: the engine's context managers (`torch.no_grad()`, `torch.enable_grad()`,
//! `torch.autocast(...)`, `torch.device(...)`, `warnings.catch_warnings(...)`) and learners' own classes with
//! `__enter__`/`__exit__`, exited in reverse order whatever way the block ends.

use ruff_python_ast::StmtWith;
use tolab_engine::amp::Autocast;

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::Value;

/// A context entered, with what leaving it must restore.
enum Entered {
    /// The grad mode before the block.
    Grad(bool),
    /// The generators `fork_rng` puts back.
    Generators(
        Vec<(
            tolab_engine::Device,
            Option<tolab_engine::random::Generator>,
        )>,
    ),
    /// The anomaly mode before the block.
    Anomaly(tolab_engine::autograd::AnomalyMode),
    Autocast(Autocast),
    /// `with torch.device(d)`: the default device before the block.
    Device(Option<tolab_engine::Device>),
    /// The warnings raised before the block, set aside; with `record=True`, the list the block's
    /// warnings go into.
    Warnings {
        earlier: Vec<String>,
        record: Option<Value>,
        /// The filters to put back on exit.
        filters: Vec<tolab_engine::WarningFilter>,
    },
    /// A learner's object, whose `__exit__` runs.
    User(Value),
    /// A learner's object in `async with`, whose `__aexit__` is awaited.
    Async(Value),
}

impl Interpreter {
    /// `with a as x, b: body`.
    pub(crate) async fn with_statement(&mut self, w: &StmtWith) -> Result<(), Flow> {
        let mut entered = Vec::new();
        let mut outcome = Ok(());
        for item in &w.items {
            let step = async {
                let manager = self.expr(&item.context_expr).await?;
                let (context, value) = match w.is_async {
                    true => Box::pin(self.enter_async_context(manager)).await?,
                    false => self.enter_context(manager).await?,
                };
                entered.push(context);
                if let Some(target) = &item.optional_vars {
                    self.assign(target, value).await?;
                }
                Ok::<(), Flow>(())
            };
            outcome = step.await;
            if outcome.is_err() {
                break;
            }
        }
        if outcome.is_ok() {
            outcome = self.block(&w.body).await;
        }
        for context in entered.into_iter().rev() {
            outcome = self.exit_context(context, outcome).await;
        }
        outcome
    }

    async fn enter_context(&mut self, manager: Value) -> Result<(Entered, Value), Flow> {
        let session = self.session.clone();
        Ok(match &manager {
            Value::GradMode(mode) => (Entered::Grad(session.set_grad_enabled(*mode)), manager),
            // The mode was set when the object was made; `__enter__` returns None.
            Value::SetGradEnabled { previous, .. } => (Entered::Grad(*previous), Value::None),
            Value::Anomaly(switch) => (Entered::Anomaly(switch.enter(&session)), Value::None),
            Value::ForkRng(fork) => (Entered::Generators(fork.enter(&session)), Value::None),
            Value::Autocast(request) => (
                Entered::Autocast(Autocast::enter(
                    &session,
                    &request.device_type,
                    request.dtype,
                    request.enabled,
                )?),
                Value::None,
            ),
            // A `DeviceContext`, as `torch.set_default_device` sets; `__enter__` returns the
            // device.
            Value::Device(device) => {
                let previous = session.default_device();
                session.set_default_device(Some(*device));
                (Entered::Device(previous), manager.clone())
            }
            Value::CatchWarnings(record) => {
                let list = record.then(|| Value::list(Vec::new()));
                let value = list.clone().unwrap_or(Value::None);
                // Entering resets Python's registry of warnings shown, as leaving does.
                session.warnings().reset_registry();
                (
                    Entered::Warnings {
                        earlier: session.take_warnings(),
                        record: list,
                        filters: session.warnings().filters(),
                    },
                    value,
                )
            }
            Value::Instance(i) if i.class.lookup("__enter__").is_some() => {
                let value = self.call_dunder(&manager, "__enter__", Vec::new()).await?;
                (Entered::User(manager), value)
            }
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'{}' object does not support the context manager protocol",
                        other.type_name()
                    ),
                )
                .into());
            }
        })
    }

    /// `async with manager`: its `__aenter__()`, awaited.
    async fn enter_async_context(&mut self, manager: Value) -> Result<(Entered, Value), Flow> {
        let has = |name| {
            manager
                .dunder_class()
                .is_some_and(|c| c.lookup(name).is_some())
        };
        if !has("__aenter__") || !has("__aexit__") {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'{}' object does not support the asynchronous context manager protocol",
                    manager.type_name()
                ),
            )
            .into());
        }
        let entering = self.call_dunder(&manager, "__aenter__", Vec::new()).await?;
        let value = self.await_value(entering).await?;
        Ok((Entered::Async(manager), value))
    }

    /// Leaves a context; a learner's `__exit__` returning true swallows the block's exception.
    async fn exit_context(
        &mut self,
        context: Entered,
        outcome: Result<(), Flow>,
    ) -> Result<(), Flow> {
        let is_async = matches!(context, Entered::Async(_));
        match context {
            Entered::Grad(previous) => {
                self.session.set_grad_enabled(previous);
            }
            Entered::Anomaly(previous) => {
                self.session.set_anomaly_mode(previous);
            }
            Entered::Generators(states) => self.session.restore_generator_states(states),
            Entered::Autocast(autocast) => autocast.exit(),
            Entered::Device(previous) => self.session.set_default_device(previous),
            Entered::Warnings {
                earlier,
                record,
                filters,
            } => {
                let caught = self.session.take_warnings();
                self.session.warnings().set_filters(filters);
                self.session.warnings().reset_registry();
                self.session.warnings().restore(earlier);
                match &record {
                    Some(Value::List(list)) => list
                        .borrow_mut()
                        .extend(caught.iter().map(|w| Value::Warning(w.as_str().into()))),
                    _ => self.session.warnings().restore(caught),
                }
            }
            Entered::User(manager) | Entered::Async(manager) => {
                let error = match &outcome {
                    Err(Flow::Error(e)) => Some(e.clone()),
                    _ => None,
                };
                let arguments = match &error {
                    Some(e) => vec![e.class(), e.value(), Value::None],
                    None => vec![Value::None, Value::None, Value::None],
                };
                let suppress = match is_async {
                    false => self.call_dunder(&manager, "__exit__", arguments).await?,
                    true => {
                        let exiting = self.call_dunder(&manager, "__aexit__", arguments).await?;
                        Box::pin(self.await_value(exiting)).await?
                    }
                };
                if error.as_ref().is_some_and(|e| !e.ends_cell) && suppress.truthy() {
                    return Ok(());
                }
            }
        }
        outcome
    }

    /// `object.__name__(*arguments)` for a learner's object.
    pub(crate) async fn call_dunder(
        &mut self,
        object: &Value,
        name: &str,
        arguments: Vec<Value>,
    ) -> Result<Value, Flow> {
        let method = object.dunder_class().and_then(|c| c.lookup(name));
        let Some(method) = method else {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object has no method {name}", object.type_name()),
            )
            .into());
        };
        let method = self.bind(object, method);
        // Boxed: dunders are called from hot, deeply nested paths (operators, truth tests),
        // whose futures must stay small for deep recursion to fit the stack.
        Box::pin(self.call(&method, Args::positional(arguments))).await
    }

    /// A class attribute looked up through an object: functions become bound methods.
    pub(crate) fn bind(&self, object: &Value, attribute: Value) -> Value {
        match &attribute {
            Value::Function(f) => Value::BoundMethod(Box::new(object.clone()), f.clone()),
            _ => attribute,
        }
    }
}
