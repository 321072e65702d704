//! The importable modules: `import torch`, `import torch.nn as nn`, `from torch import optim`,
//! `import math`. A module's names come from the torch bindings ([`crate::torch`]) or the
//! standard library ([`crate::stdlib`]); an import outside them says what the lab has.

use std::rc::Rc;

use super::args::Flow;
use super::exception::{ExcType, PyException};
use super::interpreter::{Activation, Interpreter};
use super::source::CellSource;
use super::value::{Scope, Value};

type Result<T> = std::result::Result<T, PyException>;

/// Every module a cell can import, torch's then the standard library's.
fn modules() -> impl Iterator<Item = &'static str> {
    crate::torch::NAMESPACES
        .iter()
        .chain(crate::stdlib::MODULES)
        .copied()
}

/// `import name`.
pub fn import(name: &str) -> Result<Value> {
    modules()
        .find(|m| *m == name)
        .map(Value::Module)
        .ok_or_else(|| {
            PyException::new(
                ExcType::ModuleNotFoundError,
                format!(
                    "No module named '{name}' in the lab (it has {})",
                    // The lab's private module (`_lab`) is not one to suggest.
                    modules()
                        .filter(|m| !m.starts_with("_lab"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// `from module import name`.
pub fn import_from(module: &str, name: &str) -> Result<Value> {
    let Value::Module(m) = import(module)? else {
        return Err(PyException::new(ExcType::ImportError, "not a module"));
    };
    if let Ok(sub) = import(&format!("{module}.{name}")) {
        return Ok(sub);
    }
    attribute(m, name).ok_or_else(|| {
        PyException::new(
            ExcType::ImportError,
            format!("cannot import name '{name}' from '{module}'"),
        )
    })
}

impl Interpreter {
    /// `import name`: a standard-library module written in Python runs first, the first time.
    pub(crate) async fn import(&mut self, name: &str) -> std::result::Result<Value, Flow> {
        let module = import(name)?;
        if let Value::Module(m) = module {
            self.load_source_module(m).await?;
        }
        Ok(module)
    }

    /// `from module import name`.
    pub(crate) async fn import_from(
        &mut self,
        module: &str,
        name: &str,
    ) -> std::result::Result<Value, Flow> {
        let Value::Module(m) = self.import(module).await? else {
            return Err(PyException::new(ExcType::ImportError, "not a module").into());
        };
        match self.source_modules.get(m) {
            Some(scope) => scope.borrow().get(name).cloned().ok_or_else(|| {
                PyException::new(
                    ExcType::ImportError,
                    format!("cannot import name '{name}' from '{module}'"),
                )
                .into()
            }),
            None => Ok(import_from(module, name)?),
        }
    }

    /// Runs a module's Python source in a scope of its own, once per notebook. Its functions
    /// and classes close over that scope, so they find the module's names wherever they run.
    async fn load_source_module(&mut self, name: &'static str) -> std::result::Result<(), Flow> {
        let Some(text) = crate::stdlib::source(name) else {
            return Ok(());
        };
        if self.source_modules.contains_key(name) {
            return Ok(());
        }
        let cell = Rc::new(CellSource::new(&format!("<lab>/{name}.py"), text));
        let body = cell.parse()?.body;
        let scope = Scope::default();
        scope
            .borrow_mut()
            .insert("__name__".into(), Value::str(name));
        self.stack.push(Activation {
            locals: Some(scope.clone()),
            encloses: true,
            ..Activation::top_level("<module>", cell, 0)
        });
        let outcome = self.block(&body).await;
        self.stack.pop();
        outcome?;
        self.source_modules.insert(name, scope);
        Ok(())
    }
}

/// `module.name`, if the module has it.
pub fn attribute(module: &'static str, name: &str) -> Option<Value> {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::module_attribute(module, name)
    } else {
        crate::stdlib::attribute(module, name)
    }
}

/// The names `module` has, sorted.
pub fn names(module: &'static str) -> Vec<&'static str> {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::module_names(module)
    } else {
        let mut names = crate::stdlib::names(module);
        names.sort_unstable();
        names
    }
}

/// The members `module` has, by name, for completion (a module's members are plain values:
/// reading them runs nothing).
pub fn members(module: &'static str) -> Vec<(String, Value)> {
    names(module)
        .into_iter()
        .filter_map(|name| Some((name.to_owned(), attribute(module, name)?)))
        .collect()
}

/// The error for `module.name` the module does not have.
pub fn no_attribute(module: &str, name: &str) -> PyException {
    if module == "torch" || module.starts_with("torch.") {
        crate::torch::no_attribute(module, &format!("module '{module}'"), name)
    } else if module == "numpy" || module.starts_with("numpy.") {
        crate::stdlib::numpy::no_attribute(module, name)
    } else {
        PyException::new(
            ExcType::AttributeError,
            format!("module '{module}' has no attribute '{name}'"),
        )
    }
}
