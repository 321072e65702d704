//! `exec(source)` and `eval(source)`: Python text run where the call is (its names, as in
//! CPython), or in a dict's namespace (`exec(code, namespace)`: what it binds lands in the
//! dict). Tracebacks name the text `<string>`, as CPython's do.

use std::cell::RefCell;
use std::rc::Rc;

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::{Activation, Interpreter};
use super::source::CellSource;
use super::value::{Names, Value};

impl Interpreter {
    /// `exec(source, globals=None, locals=None)`, or `eval(...)` when `name` says so.
    pub(crate) async fn exec_or_eval(&mut self, name: &str, args: Args) -> Result<Value, Flow> {
        let source = match args.get(0, "source") {
            Some(Value::Str(s)) => s.to_string(),
            Some(_) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name}() arg 1 must be a string, bytes or code object"),
                )
                .into());
            }
            None => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name} expected at least 1 argument, got 0"),
                )
                .into());
            }
        };
        let namespace = match args.get(1, "globals") {
            None | Some(Value::None) => None,
            Some(Value::Dict(d)) => Some(d.clone()),
            Some(other) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("{name}() globals must be a dict, not {}", other.type_name()),
                )
                .into());
            }
        };
        match args.get(2, "locals") {
            None | Some(Value::None) => {}
            Some(_) => {
                return Err(PyException::unsupported(&format!(
                    "{name}() with a separate locals mapping"
                ))
                .into());
            }
        }
        // `eval` of an expression's text as CPython strips it.
        let text = if name == "eval" {
            source.trim_start_matches([' ', '\t']).to_owned()
        } else {
            source
        };
        let cell = Rc::new(CellSource::new("<string>", &text));
        // In a dict's namespace, the dict is the globals while the text runs.
        let saved = namespace.as_ref().map(|dict| {
            let names: Names = dict
                .borrow()
                .iter()
                .filter_map(|(k, v)| match k {
                    Value::Str(k) => Some((k.to_string(), v.clone())),
                    _ => None,
                })
                .collect();
            std::mem::replace(&mut self.globals, names)
        });
        let caller = self.stack.last();
        let activation = Activation {
            locals: if namespace.is_some() {
                None
            } else {
                caller.and_then(|a| a.locals.clone())
            },
            enclosing: caller
                .filter(|_| namespace.is_none())
                .map_or_else(|| Rc::from(Vec::new()), |a| a.enclosing.clone()),
            encloses: caller.is_some_and(|a| a.encloses),
            globals: caller.map(|a| a.globals.clone()).unwrap_or_default(),
            ..Activation::top_level("<module>", cell.clone(), 0)
        };
        self.stack.push(activation);
        let outcome = if name == "eval" {
            match cell.parse_expression() {
                Ok(expression) => self.expr(&expression.body).await,
                Err(e) => Err(e.into()),
            }
        } else {
            match cell.parse() {
                Ok(module) => self.block(&module.body).await.map(|()| Value::None),
                Err(e) => Err(e.into()),
            }
        };
        self.stack.pop();
        if let (Some(saved), Some(dict)) = (saved, &namespace) {
            let bound = std::mem::replace(&mut self.globals, saved);
            write_back(dict, bound);
        }
        outcome
    }
}

/// The names a text bound in a dict's namespace, into the dict.
fn write_back(dict: &Rc<RefCell<Vec<(Value, Value)>>>, names: Names) {
    let mut entries = dict.borrow_mut();
    for (name, value) in names {
        super::value::insert_entry(&mut entries, Value::str(&name), value);
    }
}
