//! Python's standard library as the lab has it, and the `numpy` that PyTorch tutorials use:
//! each module's names, and calling its functions. `math`, `copy`, `random`, `re`, `files`,
//! `typing` and `numpy` are modules of their own here; `time`, `warnings` and `_lab` (what the
//! modules in `py/` reach the interpreter through: the cell's output streams, `os.environ`,
//! …) are small enough to live in this file.

pub mod copy;
pub mod files;
pub mod math;
pub mod numpy;
pub mod random;
pub mod re;
pub mod typing;

use std::rc::Rc;

use crate::python::args::{Args, Flow};
use crate::python::clock::{self, seconds};
use crate::python::exception::{ExcType, PyException};
use crate::python::interpreter::Interpreter;
use crate::python::value::{Value, as_f64};

/// The standard-library modules a cell can import.
pub const MODULES: &[&str] = &[
    "math",
    "warnings",
    "time",
    "random",
    "os",
    "typing",
    "copy",
    "itertools",
    "functools",
    "contextlib",
    "statistics",
    "string",
    "abc",
    "operator",
    "json",
    "collections",
    "dataclasses",
    "__future__",
    "textwrap",
    "sys",
    "io",
    "logging",
    "argparse",
    "re",
    "enum",
    "os.path",
    "pathlib",
    "glob",
    "fnmatch",
    "shutil",
    "csv",
    "datetime",
    "timeit",
    "asyncio",
    "pickle",
    "fractions",
    "numpy",
    "numpy.random",
    // What the modules written in Python reach the interpreter through (`sys.stdout.write`).
    "_lab",
];

/// The modules written in Python (in `stdlib/py/`), by name: each runs at its first import.
const SOURCES: &[(&str, &str)] = &[
    ("itertools", include_str!("py/itertools.py")),
    ("functools", include_str!("py/functools.py")),
    ("contextlib", include_str!("py/contextlib.py")),
    ("statistics", include_str!("py/statistics.py")),
    ("string", include_str!("py/string.py")),
    ("abc", include_str!("py/abc.py")),
    ("operator", include_str!("py/operator.py")),
    ("json", include_str!("py/json.py")),
    ("collections", include_str!("py/collections.py")),
    ("dataclasses", include_str!("py/dataclasses.py")),
    ("__future__", include_str!("py/__future__.py")),
    ("textwrap", include_str!("py/textwrap.py")),
    ("sys", include_str!("py/sys.py")),
    ("io", include_str!("py/io.py")),
    ("asyncio", include_str!("py/asyncio.py")),
    ("pickle", include_str!("py/pickle.py")),
    ("fractions", include_str!("py/fractions.py")),
    ("logging", include_str!("py/logging.py")),
    ("argparse", include_str!("py/argparse.py")),
    ("random", include_str!("py/random.py")),
    ("re", include_str!("py/re.py")),
    ("enum", include_str!("py/enum.py")),
    ("os", include_str!("py/os.py")),
    ("os.path", include_str!("py/posixpath.py")),
    ("pathlib", include_str!("py/pathlib.py")),
    ("glob", include_str!("py/glob.py")),
    ("fnmatch", include_str!("py/fnmatch.py")),
    ("shutil", include_str!("py/shutil.py")),
    ("csv", include_str!("py/csv.py")),
    ("datetime", include_str!("py/datetime.py")),
    ("timeit", include_str!("py/timeit.py")),
];

/// The Python source of a standard-library module written in Python.
pub fn source(module: &str) -> Option<&'static str> {
    SOURCES.iter().find(|(m, _)| *m == module).map(|(_, s)| *s)
}

const WARNINGS: &[&str] = &["warn", "catch_warnings", "simplefilter", "filterwarnings"];
const TIME: &[&str] = &["perf_counter", "time", "sleep", "monotonic"];
const LAB: &[&str] = &[
    "write_stdout",
    "write_stderr",
    "caller",
    "exc_info",
    "new_object",
    "abstract_methods",
    "is_subclass",
    "environ",
    "is_coroutine",
    "is_coroutine_function",
    "is_function",
    "is_plain_object",
    "main_global",
    "pack_double",
    "unpack_double",
];

/// The functions (and other names) of a standard-library module.
pub fn names(module: &str) -> Vec<&'static str> {
    match module {
        "math" => math::FUNCTIONS
            .iter()
            .copied()
            .chain(["pi", "e", "tau", "inf", "nan"])
            .collect(),
        "warnings" => WARNINGS.to_vec(),
        "time" => TIME.to_vec(),
        "typing" => typing::NAMES.to_vec(),
        "copy" => copy::FUNCTIONS.to_vec(),
        "_lab" => LAB
            .iter()
            .chain(random::NATIVES)
            .chain(re::NATIVES)
            .chain(files::NATIVES)
            .copied()
            .collect(),
        "numpy" | "numpy.random" => numpy::names(module),
        _ => Vec::new(),
    }
}

/// `module.name`, if the module has it.
pub fn attribute(module: &'static str, name: &str) -> Option<Value> {
    let function = || Some(Value::ModuleFn(module, Rc::from(name)));
    match module {
        "math" => math::constant(name)
            .or_else(|| math::FUNCTIONS.contains(&name).then(function).flatten()),
        "typing" => typing::NAMES
            .contains(&name)
            .then(|| Value::Typing(Rc::from(format!("typing.{name}")))),
        "warnings" if WARNINGS.contains(&name) => function(),
        "time" if TIME.contains(&name) => function(),
        "copy" if copy::FUNCTIONS.contains(&name) => function(),
        "_lab"
            if LAB.contains(&name)
                || random::NATIVES.contains(&name)
                || re::NATIVES.contains(&name)
                || files::NATIVES.contains(&name) =>
        {
            function()
        }
        "numpy" | "numpy.random" => numpy::attribute(module, name),
        _ => None,
    }
}

impl Interpreter {
    /// Calls `module.name(...)` of the standard library.
    pub(crate) async fn call_stdlib(
        &mut self,
        module: &str,
        name: &str,
        mut args: Args,
    ) -> Result<Value, Flow> {
        // The functions here read an iterable whole (`math.fsum(x * x for x in xs)`).
        for arg in &mut args.positional {
            if let Value::Iterator(_) = arg {
                *arg = Value::list(self.collect(arg).await?);
            }
        }
        let session = self.session.clone();
        let text = |i: usize, key: &str| args.get(i, key).map(Value::str_text);
        Ok(match (module, name) {
            ("warnings", "warn") => {
                session.warn(&text(0, "message").unwrap_or_default());
                Value::None
            }
            ("warnings", "catch_warnings") => {
                Value::CatchWarnings(args.keyword("record").is_some_and(Value::truthy))
            }
            ("warnings", "simplefilter" | "filterwarnings") => {
                warning_filter(&session, name, &args)?;
                Value::None
            }
            ("time", "perf_counter" | "monotonic") => Value::Float(seconds()),
            ("time", "time") => Value::Float(clock::epoch_seconds()),
            ("time", "sleep") => {
                let length = args.get(0, "secs").map(as_f64).unwrap_or(f64::NAN);
                self.sleep(length).await?;
                Value::None
            }
            ("_lab", "write_stdout" | "write_stderr") => {
                let [Value::Str(text)] = args.positional.as_slice() else {
                    let given = args
                        .positional
                        .first()
                        .map_or_else(|| "nothing".to_owned(), Value::type_name);
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("write() argument must be str, not {given}"),
                    )
                    .into());
                };
                let stream = if name == "write_stdout" {
                    &self.stdout
                } else {
                    &self.stderr
                };
                stream.borrow_mut().push_str(text);
                Value::Int(text.chars().count() as i64)
            }
            // Where the code that called into a module written in Python is: its file, line and
            // function (logging's `%(lineno)d`).
            ("_lab", "caller") => {
                let frame = self
                    .stack
                    .iter()
                    .rev()
                    .find(|a| !a.cell.name.starts_with("<lab>/"));
                match frame {
                    Some(a) => Value::Tuple(Rc::from(vec![
                        Value::str(&a.cell.name),
                        Value::Int(a.line() as i64),
                        Value::str(&a.function),
                    ])),
                    None => Value::Tuple(Rc::from(vec![
                        Value::str("<unknown>"),
                        Value::Int(0),
                        Value::str("<module>"),
                    ])),
                }
            }
            // What `abc.ABCMeta` builds on: the abstract methods a class has left, and
            // `issubclass` along the real bases only (`type.__subclasscheck__`).
            ("_lab", "abstract_methods") => match args.positional.first() {
                Some(Value::Class(class)) => Value::set(
                    crate::python::objects::abstract_methods(class)
                        .iter()
                        .map(|name| Value::str(name))
                        .collect(),
                )?,
                _ => Value::set(Vec::new())?,
            },
            ("_lab", "is_subclass") => match args.positional.as_slice() {
                [class, parent] => {
                    Value::Bool(crate::python::builtins::is_subclass(class, parent)?)
                }
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "is_subclass() takes 2 arguments",
                    )
                    .into());
                }
            },
            ("_lab", "environ") => Value::Environ(self.session.clone()),
            ("_lab", "is_coroutine") => Value::Bool(matches!(
                args.positional.first(),
                Some(Value::Coroutine(g)) if g.kind() == crate::python::generator::Kind::Coroutine
            )),
            // What `pickle` asks of the values it writes and reads.
            ("_lab", "is_function") => Value::Bool(matches!(
                args.positional.first(),
                Some(Value::Function(_) | Value::Builtin(_))
            )),
            // A learner's object whose state is its attributes (not a module, not a value of a
            // built-in type).
            ("_lab", "is_plain_object") => Value::Bool(matches!(
                args.positional.first(),
                Some(Value::Instance(i)) if !i.class.is_module && i.builtin.borrow().is_none()
            )),
            ("_lab", "main_global") => match args.positional.first() {
                Some(Value::Str(name)) => self.globals.get(&**name).cloned().unwrap_or(Value::None),
                _ => Value::None,
            },
            ("_lab", "pack_double") => match args.positional.first() {
                Some(x @ (Value::Float(_) | Value::Int(_) | Value::Bool(_))) => {
                    Value::Bytes(Rc::from(as_f64(x).to_be_bytes().as_slice()))
                }
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "required argument is not a float",
                    )
                    .into());
                }
            },
            ("_lab", "unpack_double") => match args.positional.first() {
                Some(Value::Bytes(b)) if b.len() == 8 => {
                    let mut raw = [0u8; 8];
                    raw.copy_from_slice(b);
                    Value::Float(f64::from_be_bytes(raw))
                }
                _ => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "unpack requires a buffer of 8 bytes",
                    )
                    .into());
                }
            },
            ("_lab", "is_coroutine_function") => Value::Bool(match args.positional.first() {
                Some(Value::Function(f) | Value::BoundMethod(_, f)) => f.is_async && !f.generator,
                _ => false,
            }),
            // `object.__new__(cls)`, or `int.__new__(cls, value)` for a class deriving from a
            // built-in value: an object no `__init__` has run on.
            ("_lab", "new_object") => match args.positional.as_slice() {
                [Value::Class(class), value @ ..] if value.len() <= 1 => {
                    let class = class.clone();
                    let object = self.bare_instance(&class);
                    if let [value] = value {
                        *object.builtin.borrow_mut() = Some(value.clone());
                    }
                    Value::Instance(object)
                }
                _ => {
                    return Err(
                        PyException::new(ExcType::TypeError, "new_object() needs a class").into(),
                    );
                }
            },
            // The exception being handled: its class, value and traceback as Python prints it.
            ("_lab", "exc_info") => match self.handling.last() {
                Some((_, e)) => Value::Tuple(Rc::from(vec![
                    e.class(),
                    e.value(),
                    Value::str(&e.traceback()),
                ])),
                None => Value::Tuple(Rc::from(vec![Value::None, Value::None, Value::None])),
            },
            ("_lab", _) if re::NATIVES.contains(&name) => re::call(name, &args)?,
            ("_lab", _) if files::NATIVES.contains(&name) => {
                files::call(&*self.files, name, &args)?
            }
            ("_lab", _) if random::NATIVES.contains(&name) => {
                random::call(&self.python_random, name, &args)?
            }
            ("copy", _) => copy::call(name, &args)?,
            ("math", _) => math::call(name, &args)?,
            ("numpy" | "numpy.random", _) => {
                numpy::call(&session, &mut self.numpy, module, name, &args)?
            }
            _ => {
                return Err(PyException::new(
                    ExcType::AttributeError,
                    format!("module '{module}' has no attribute '{name}'"),
                )
                .into());
            }
        })
    }

    /// `time.sleep`: waits in slices, so that a Stop, the time budget and progress reports still
    /// happen while it waits.
    async fn sleep(&mut self, length: f64) -> Result<(), Flow> {
        if length.is_nan() {
            return Err(
                PyException::new(ExcType::ValueError, "Invalid value NaN (not a number)").into(),
            );
        }
        if length < 0.0 {
            return Err(
                PyException::new(ExcType::ValueError, "sleep length must be non-negative").into(),
            );
        }
        let until = seconds() + length;
        loop {
            let left = until - seconds();
            if left <= 0.0 {
                return Ok(());
            }
            clock::wait(
                left.min(crate::python::interpreter::PAUSE_EVERY),
                !self.hold_pauses,
            )
            .await;
            self.check_clock()?;
            self.pause_point().await;
        }
    }
}

/// `warnings.simplefilter(action, category=Warning, lineno=0, append=False)` and
/// `filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False)`.
/// Every warning the lab raises is a `UserWarning` from the learner's `__main__`: a filter for
/// another category or module matches none of them and is left out.
fn warning_filter(
    session: &tolab_engine::Session,
    name: &str,
    args: &Args,
) -> Result<(), PyException> {
    use tolab_engine::{WarningAction, WarningFilter};
    let action = args
        .get(0, "action")
        .map(Value::str_text)
        .unwrap_or_default();
    let action = match action.as_str() {
        "default" | "module" => WarningAction::Default,
        "always" => WarningAction::Always,
        "once" => WarningAction::Once,
        "ignore" => WarningAction::Ignore,
        // "error" turns warnings into exceptions, which the lab's engine warnings cannot be.
        "error" => {
            return Err(crate::torch::ops::not_yet(
                "warnings filters with the action 'error'",
            ));
        }
        other => {
            return Err(PyException::new(
                ExcType::AssertionError,
                format!("invalid action: {}", Value::str(other).repr()),
            ));
        }
    };
    let filtering = name == "filterwarnings";
    let at = |simple: usize, full: usize| if filtering { full } else { simple };
    let text = |i: usize, key: &str| args.get(i, key).map(Value::str_text).unwrap_or_default();
    let category_matches = match args.get(at(1, 2), "category") {
        None => true,
        Some(Value::ExcClass(kind)) => matches!(kind.name(), "UserWarning" | "Warning"),
        Some(_) => false,
    };
    let module = if filtering {
        text(3, "module")
    } else {
        String::new()
    };
    let module_matches = module.is_empty()
        || crate::stdlib::re::matches_start(&format!("(?:{module})\\Z"), false)?("__main__");
    let lineno = args.get(at(2, 4), "lineno").map_or(0, |v| match v {
        Value::Int(n) => *n,
        _ => 0,
    });
    let append = args.get(at(3, 5), "append").is_some_and(Value::truthy);
    if !category_matches || !module_matches || lineno != 0 {
        return Ok(());
    }
    let message = if filtering {
        text(1, "message")
    } else {
        String::new()
    };
    let message = match message.is_empty() {
        true => None,
        false => Some(crate::stdlib::re::matches_start(&message, true)?),
    };
    session
        .warnings()
        .add_filter(WarningFilter { action, message }, append);
    Ok(())
}
