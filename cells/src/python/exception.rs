//! Python exceptions raised in a cell: their type, message and traceback frames, formatted as
//! CPython prints them (`Traceback (most recent call last):` … `RuntimeError: …`). Engine errors
//! map to the Python type PyTorch raises for them, with PyTorch's text.

use tolab_engine::{Error, PythonType};

use std::rc::Rc;

use crate::python::value::{Instance, Value};

/// The exception classes the lab's Python raises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExcType {
    SyntaxError,
    IndentationError,
    TabError,
    NameError,
    TypeError,
    ValueError,
    IndexError,
    KeyError,
    AttributeError,
    ZeroDivisionError,
    OverflowError,
    AssertionError,
    RuntimeError,
    NotImplementedError,
    ImportError,
    ModuleNotFoundError,
    RecursionError,
    StopIteration,
    MemoryError,
    /// An internal error of the lab (CPython raises it for its own bugs).
    SystemError,
    /// A Stop request from the UI, as Ctrl+C is in a terminal.
    KeyboardInterrupt,
    /// `Exception`, the base every handler class here derives from.
    Exception,
    LookupError,
    ArithmeticError,
    /// An exception class the engine names (`torch.OutOfMemoryError`, `_pickle.UnpicklingError`).
    Other(String),
}

impl ExcType {
    /// The name a traceback's last line starts with.
    pub fn name(&self) -> &str {
        match self {
            ExcType::SyntaxError => "SyntaxError",
            ExcType::IndentationError => "IndentationError",
            ExcType::TabError => "TabError",
            ExcType::NameError => "NameError",
            ExcType::TypeError => "TypeError",
            ExcType::ValueError => "ValueError",
            ExcType::IndexError => "IndexError",
            ExcType::KeyError => "KeyError",
            ExcType::AttributeError => "AttributeError",
            ExcType::ZeroDivisionError => "ZeroDivisionError",
            ExcType::OverflowError => "OverflowError",
            ExcType::AssertionError => "AssertionError",
            ExcType::RuntimeError => "RuntimeError",
            ExcType::NotImplementedError => "NotImplementedError",
            ExcType::ImportError => "ImportError",
            ExcType::ModuleNotFoundError => "ModuleNotFoundError",
            ExcType::RecursionError => "RecursionError",
            ExcType::StopIteration => "StopIteration",
            ExcType::MemoryError => "MemoryError",
            ExcType::SystemError => "SystemError",
            ExcType::KeyboardInterrupt => "KeyboardInterrupt",
            ExcType::Exception => "Exception",
            ExcType::LookupError => "LookupError",
            ExcType::ArithmeticError => "ArithmeticError",
            ExcType::Other(name) => name,
        }
    }
}

impl ExcType {
    /// The builtin class a name in a cell refers to.
    pub fn builtin(name: &str) -> Option<ExcType> {
        Some(match name {
            "Exception" => ExcType::Exception,
            "SyntaxError" => ExcType::SyntaxError,
            "IndentationError" => ExcType::IndentationError,
            "TabError" => ExcType::TabError,
            "NameError" => ExcType::NameError,
            "TypeError" => ExcType::TypeError,
            "ValueError" => ExcType::ValueError,
            "IndexError" => ExcType::IndexError,
            "KeyError" => ExcType::KeyError,
            "AttributeError" => ExcType::AttributeError,
            "ZeroDivisionError" => ExcType::ZeroDivisionError,
            "OverflowError" => ExcType::OverflowError,
            "AssertionError" => ExcType::AssertionError,
            "RuntimeError" => ExcType::RuntimeError,
            "NotImplementedError" => ExcType::NotImplementedError,
            "ImportError" => ExcType::ImportError,
            "ModuleNotFoundError" => ExcType::ModuleNotFoundError,
            "RecursionError" => ExcType::RecursionError,
            "StopIteration" => ExcType::StopIteration,
            "MemoryError" => ExcType::MemoryError,
            "SystemError" => ExcType::SystemError,
            "LookupError" => ExcType::LookupError,
            "ArithmeticError" => ExcType::ArithmeticError,
            "KeyboardInterrupt" => ExcType::KeyboardInterrupt,
            "BaseException" | "OSError" | "FileNotFoundError" | "FileExistsError"
            | "IsADirectoryError" | "NotADirectoryError" | "PermissionError" | "TimeoutError"
            | "EOFError" | "UnboundLocalError" | "UnicodeError" | "UnicodeDecodeError"
            | "UnicodeEncodeError" | "FloatingPointError" | "GeneratorExit" | "SystemExit"
            | "BufferError" | "ConnectionError" | "StopAsyncIteration" | "Warning"
            | "UserWarning" | "DeprecationWarning" | "FutureWarning" | "RuntimeWarning" => {
                ExcType::Other(name.to_owned())
            }
            _ => return None,
        })
    }

    /// `OSError` or one of its subclasses (`FileNotFoundError`, …).
    pub fn is_os_error(&self) -> bool {
        self.caught_by(&ExcType::Other("OSError".to_owned()))
    }

    /// `except handler:` catches an exception of this type (Python's class hierarchy, as far as
    /// the lab's exceptions go).
    pub fn caught_by(&self, handler: &ExcType) -> bool {
        let name = self.name();
        // Outside `Exception`, as in Python: what ends a program rather than fails in it.
        let exits = matches!(
            name,
            "BaseException" | "GeneratorExit" | "SystemExit" | "KeyboardInterrupt"
        );
        if self == handler
            || (*handler == ExcType::Exception && !exits)
            || handler.name() == "BaseException"
        {
            return true;
        }
        match handler {
            ExcType::Other(parent) => {
                let parents: &[&str] = match name {
                    "FileNotFoundError" | "FileExistsError" | "IsADirectoryError"
                    | "NotADirectoryError" | "PermissionError" | "TimeoutError"
                    | "ConnectionError" => &["OSError"],
                    "UnicodeDecodeError" | "UnicodeEncodeError" => &["UnicodeError", "ValueError"],
                    "UserWarning" | "DeprecationWarning" | "FutureWarning" | "RuntimeWarning" => {
                        &["Warning"]
                    }
                    _ => &[],
                };
                parents.contains(&parent.as_str())
            }
            // NumPy's AxisError derives from ValueError and IndexError.
            ExcType::ValueError => matches!(
                name,
                "UnicodeError"
                    | "UnicodeDecodeError"
                    | "UnicodeEncodeError"
                    | "numpy.exceptions.AxisError"
            ),
            ExcType::IndexError => name == "numpy.exceptions.AxisError",
            ExcType::NameError => name == "UnboundLocalError",
            ExcType::ArithmeticError if name == "FloatingPointError" => true,
            ExcType::RuntimeError => {
                matches!(self, ExcType::NotImplementedError | ExcType::RecursionError)
                    || matches!(self, ExcType::Other(name) if name.starts_with("torch."))
            }
            ExcType::LookupError => matches!(self, ExcType::IndexError | ExcType::KeyError),
            // NumPy's casting errors derive from TypeError.
            ExcType::TypeError => name.starts_with("numpy._core._exceptions."),
            ExcType::ArithmeticError => {
                matches!(self, ExcType::ZeroDivisionError | ExcType::OverflowError)
            }
            ExcType::ImportError => *self == ExcType::ModuleNotFoundError,
            ExcType::SyntaxError => matches!(self, ExcType::IndentationError | ExcType::TabError),
            ExcType::IndentationError => *self == ExcType::TabError,
            _ => false,
        }
    }
}

/// Where a syntax error is: the file, the 1-based line and its text, the 1-based column and how
/// many carets mark it (none for some, as CPython prints them).
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxAt {
    pub file: String,
    pub line: usize,
    pub text: String,
    pub column: usize,
    pub width: usize,
}

/// One line of a traceback: where the call was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub file: String,
    pub line: usize,
    /// `<module>` for a cell's top level, else the function's name.
    pub function: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PyException {
    pub kind: ExcType,
    pub message: String,
    /// Outermost call first, as tracebacks list them.
    pub frames: Vec<Frame>,
    /// For a `SyntaxError`: the file, line, its text and the caret's column (1-based).
    pub syntax_at: Option<Box<SyntaxAt>>,
    /// The engine error behind it, when there is one.
    pub engine: Option<Box<Error>>,
    /// A limit of the lab ended the cell (step or time budget, Stop): no `except` catches it
    /// and no `__exit__` swallows it, so a loop wrapped in `try` still ends.
    pub ends_cell: bool,
    /// What a cell raised it with (`ValueError("bad", 3).args`), when a cell made it.
    pub args: ExceptionArgs,
    /// What it was raised from or during, if anything.
    pub chain: Option<Box<Chain>>,
}

/// `raise … from cause` (`__cause__`), and the exception being handled when one was raised
/// (`__context__`); `from` suppresses the context in tracebacks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chain {
    pub cause: Option<PyException>,
    pub context: Option<PyException>,
    pub suppress_context: bool,
}

/// An exception's `args` as the cell gave them (a `StopIteration`'s first is its `value`), or
/// the object of a learner's exception class that was raised (`class MyError(Exception)`).
#[derive(Clone, Default)]
pub enum ExceptionArgs {
    #[default]
    None,
    Args(Rc<Vec<Value>>),
    Object(Rc<Value>),
}

impl std::fmt::Debug for ExceptionArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExceptionArgs::None => f.write_str("None"),
            ExceptionArgs::Args(args) => f
                .debug_list()
                .entries(args.iter().map(Value::repr))
                .finish(),
            ExceptionArgs::Object(object) => f.write_str(&object.repr()),
        }
    }
}

impl PartialEq for ExceptionArgs {
    fn eq(&self, other: &Self) -> bool {
        format!("{self:?}") == format!("{other:?}")
    }
}

impl PyException {
    pub fn new(kind: ExcType, message: impl Into<String>) -> PyException {
        PyException {
            kind,
            message: message.into(),
            frames: Vec::new(),
            syntax_at: None,
            engine: None,
            ends_cell: false,
            args: ExceptionArgs::default(),
            chain: None,
        }
    }

    /// Sets `__cause__` / `__context__` / `__suppress_context__`, on the learner's object too
    /// when it is one (where `e.__cause__` reads them).
    pub fn link(
        &mut self,
        cause: Option<PyException>,
        context: Option<PyException>,
        suppress: bool,
    ) {
        if let Some(object) = self.object() {
            let mut attributes = object.attributes.borrow_mut();
            if suppress {
                let cause = cause.as_ref().map_or(Value::None, PyException::value);
                attributes.insert("__cause__".into(), cause);
                attributes.insert("__suppress_context__".into(), Value::Bool(true));
            }
            if let Some(context) = &context {
                attributes.insert("__context__".into(), context.value());
            }
        }
        let chain = self.chain.get_or_insert_with(Box::default);
        if suppress {
            chain.cause = cause;
            chain.suppress_context = true;
        }
        if context.is_some() {
            chain.context = context;
        }
    }

    /// The exception being handled when this one was raised.
    pub fn context(&self) -> Option<&PyException> {
        self.chain.as_ref()?.context.as_ref()
    }

    /// `e.__cause__`, `e.__context__`, `e.__suppress_context__`.
    pub fn chain_field(&self, name: &str) -> Option<Value> {
        let chain = self.chain.as_deref().cloned().unwrap_or_default();
        let value = |e: &Option<PyException>| e.as_ref().map_or(Value::None, PyException::value);
        match name {
            "__cause__" => Some(value(&chain.cause)),
            "__context__" => Some(value(&chain.context)),
            "__suppress_context__" => Some(Value::Bool(chain.suppress_context)),
            _ => None,
        }
    }

    /// An exception made by a cell's call (`ValueError("bad")`): its message is what `str()`
    /// of it shows (its one argument, or the tuple of several).
    pub fn with_args(kind: ExcType, args: Vec<Value>) -> PyException {
        let message = match args.as_slice() {
            [] => String::new(),
            // `OSError(errno, strerror[, filename])`: `[Errno 2] No such file or directory: 'x'`.
            [Value::Int(errno), strerror, rest @ ..] if kind.is_os_error() && rest.len() <= 1 => {
                let mut message = format!("[Errno {errno}] {}", strerror.str_text());
                if let [filename] = rest {
                    message.push_str(&format!(": {}", filename.repr()));
                }
                message
            }
            // A KeyError shows its key as a repr (`KeyError: 'lr'`).
            [one] if kind == ExcType::KeyError => one.repr(),
            [one] => one.str_text(),
            many => Value::Tuple(many.into()).str_text(),
        };
        PyException {
            args: ExceptionArgs::Args(Rc::new(args)),
            ..PyException::new(kind, message)
        }
    }

    /// An `OSError`'s `errno`, `strerror` and `filename` (None where not given).
    pub fn os_error_field(&self, name: &str) -> Option<Value> {
        if !self.kind.is_os_error() {
            return None;
        }
        let given = match &self.args {
            ExceptionArgs::Args(args) if matches!(args.first(), Some(Value::Int(_))) => {
                args.to_vec()
            }
            _ => Vec::new(),
        };
        let at = ["errno", "strerror", "filename"]
            .iter()
            .position(|field| *field == name)?;
        Some(given.get(at).cloned().unwrap_or(Value::None))
    }

    /// `e.args`: what a cell raised it with, or its message.
    pub fn args(&self) -> Vec<Value> {
        match &self.args {
            // An OSError's filename is not one of its args.
            ExceptionArgs::Args(args)
                if self.kind.is_os_error()
                    && args.len() == 3
                    && matches!(args[0], Value::Int(_)) =>
            {
                args[..2].to_vec()
            }
            ExceptionArgs::Args(args) => args.to_vec(),
            ExceptionArgs::Object(object) => match &**object {
                Value::Instance(i) => match i.attributes.borrow().get("args") {
                    Some(Value::Tuple(args)) => args.to_vec(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            },
            ExceptionArgs::None if self.message.is_empty() => Vec::new(),
            ExceptionArgs::None => vec![Value::str(&self.message)],
        }
    }

    /// The object of a learner's exception class that was raised, if it was one.
    pub fn object(&self) -> Option<&Rc<Instance>> {
        match &self.args {
            ExceptionArgs::Object(object) => match &**object {
                Value::Instance(i) => Some(i),
                _ => None,
            },
            _ => None,
        }
    }

    /// What `except … as e` binds: the learner's object that was raised, or the exception.
    pub fn value(&self) -> Value {
        match &self.args {
            ExceptionArgs::Object(object) => (**object).clone(),
            _ => Value::Exception(Rc::new(self.clone())),
        }
    }

    /// `type(e)`.
    pub fn class(&self) -> Value {
        match self.object() {
            Some(i) => Value::Class(i.class.clone()),
            None => Value::ExcClass(self.kind.clone()),
        }
    }

    /// Whether `except handler:` catches it (`handler` a class, not a tuple).
    pub fn caught_by(&self, handler: &Value) -> bool {
        let learner_class = self.object().map(|i| &i.class);
        match (handler, learner_class) {
            (Value::ExcClass(kind), None) => self.kind.caught_by(kind),
            (Value::ExcClass(kind), Some(class)) => class
                .exception
                .as_ref()
                .is_some_and(|root| root.caught_by(kind)),
            (Value::Class(handler), Some(class)) => class.is_or_derives(handler),
            _ => false,
        }
    }

    /// An error from a limit of the lab, which ends the cell whatever handlers it passes.
    pub fn ending_cell(kind: ExcType, message: impl Into<String>) -> PyException {
        PyException {
            ends_cell: true,
            ..PyException::new(kind, message)
        }
    }

    pub fn syntax_error(file: &str, text: &str, diagnosis: super::syntax::Diagnosis) -> Self {
        PyException {
            syntax_at: Some(Box::new(SyntaxAt {
                file: file.to_owned(),
                line: diagnosis.line,
                text: text.to_owned(),
                column: diagnosis.column,
                width: diagnosis.width,
            })),
            ..PyException::new(diagnosis.kind, diagnosis.message)
        }
    }

    /// What is outside the lab's Python subset fails at its line with this.
    /// An int past what the lab's ints hold (64 bits).
    pub fn unsupported(what: &str) -> PyException {
        PyException::new(
            ExcType::NotImplementedError,
            format!("{what} is not supported in lab cells"),
        )
    }

    /// The traceback as CPython prints it.
    pub fn traceback(&self) -> String {
        self.chained_traceback(MAX_CHAIN)
    }

    /// The tracebacks of the exceptions this one was raised from or during, first, as
    /// CPython prints them (at most `depth` of them).
    fn chained_traceback(&self, depth: usize) -> String {
        let mut out = String::new();
        let chain = self.chain.as_deref();
        let earlier = match chain.map(|c| (&c.cause, &c.context)) {
            Some((Some(cause), _)) => Some((
                cause,
                "The above exception was the direct cause of the following exception:",
            )),
            Some((None, Some(context))) if !chain.is_some_and(|c| c.suppress_context) => Some((
                context,
                "During handling of the above exception, another exception occurred:",
            )),
            _ => None,
        };
        if let Some((earlier, why)) = earlier.filter(|_| depth > 0) {
            out.push_str(&earlier.chained_traceback(depth - 1));
            out.push_str(&format!("\n\n{why}\n\n"));
        }
        out.push_str(&self.own_traceback());
        out
    }

    fn own_traceback(&self) -> String {
        let mut out = String::new();
        if let Some(at) = &self.syntax_at {
            out.push_str(&format!("  File \"{}\", line {}\n", at.file, at.line));
            let trimmed = at.text.trim();
            let indent = at.text.chars().count() - at.text.trim_start().chars().count();
            if !trimmed.is_empty() {
                out.push_str(&format!("    {trimmed}\n"));
            }
            if at.width > 0 && !trimmed.is_empty() {
                let caret = at.column.saturating_sub(1).saturating_sub(indent);
                out.push_str(&format!(
                    "    {}{}\n",
                    " ".repeat(caret),
                    "^".repeat(at.width)
                ));
            }
        } else if !self.frames.is_empty() {
            out.push_str("Traceback (most recent call last):\n");
            // As CPython's traceback module: a frame repeated more than three times in a row
            // (deep recursion) is printed three times, then counted.
            const REPEATS_SHOWN: usize = 3;
            let same = |a: &Frame, b: &Frame| {
                (&a.file, a.line, &a.function) == (&b.file, b.line, &b.function)
            };
            let mut repeats = 0;
            for (i, frame) in self.frames.iter().enumerate() {
                let repeated = i > 0 && same(&self.frames[i - 1], frame);
                repeats = if repeated { repeats + 1 } else { 0 };
                if repeats >= REPEATS_SHOWN {
                    let ends_run = self.frames.get(i + 1).is_none_or(|next| !same(frame, next));
                    if ends_run {
                        let more = repeats + 1 - REPEATS_SHOWN;
                        let times = if more == 1 { "time" } else { "times" };
                        out.push_str(&format!("  [Previous line repeated {more} more {times}]\n"));
                    }
                    continue;
                }
                out.push_str(&format!(
                    "  File \"{}\", line {}, in {}\n",
                    frame.file, frame.line, frame.function
                ));
                if !frame.text.trim().is_empty() {
                    out.push_str(&format!("    {}\n", frame.text.trim()));
                }
            }
        }
        if self.message.is_empty() {
            out.push_str(self.kind.name());
        } else {
            out.push_str(&format!("{}: {}", self.kind.name(), self.message));
        }
        out
    }
}

/// How many chained exceptions a traceback shows before the one raised.
const MAX_CHAIN: usize = 16;

impl From<Error> for PyException {
    fn from(error: Error) -> PyException {
        let kind = match error.python_type() {
            PythonType::RuntimeError => ExcType::RuntimeError,
            PythonType::ValueError => ExcType::ValueError,
            PythonType::TypeError => ExcType::TypeError,
            PythonType::IndexError => ExcType::IndexError,
            PythonType::KeyError => ExcType::KeyError,
            PythonType::NotImplementedError => ExcType::NotImplementedError,
            PythonType::AssertionError => ExcType::AssertionError,
            other => ExcType::Other(other.name().to_owned()),
        };
        PyException {
            engine: Some(Box::new(error.clone())),
            ..PyException::new(kind, error.to_string())
        }
    }
}
