//! Completion from the live namespace, as a Jupyter kernel answers `complete_request`: the names
//! a cell could type next (the notebook's variables, builtins, keywords), an object's attributes
//! after `x.`, a learner function's keyword arguments inside its call, and the call's signature.
//!
//! Nothing runs: names are looked up and attributes read only where reading has no effect (a
//! module's members, the lab's method tables, a learner object's own dictionary).

use serde::{Deserialize, Serialize};

use super::interpreter::Interpreter;
use super::value::{Function, Value};

/// What the editor may offer at the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Completions {
    /// How many characters before the cursor the chosen item replaces (the word typed so far).
    pub replace: usize,
    pub items: Vec<Completion>,
    /// The signature of the call the cursor is in, when the lab knows it: `f(a, b=2)`.
    pub signature: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    pub label: String,
    /// CodeMirror's kinds: `variable`, `function`, `class`, `module`, `keyword`, `property`,
    /// `method`, `parameter`.
    pub kind: String,
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
];

/// The word being typed at the end of `before`, and the dotted path before it (`x.sh` → path
/// `["x"]`, word `sh`); `None` inside a string or a comment, or after a number.
fn dotted_tail(before: &str) -> Option<(Vec<&str>, &str)> {
    let line = before.rsplit('\n').next().unwrap_or(before);
    let (mut quotes, mut comment) = (None, false);
    for c in line.chars() {
        match (quotes, c) {
            (None, '#') => comment = true,
            (None, '\'' | '"') => quotes = Some(c),
            (Some(q), c) if c == q => quotes = None,
            _ => {}
        }
    }
    if quotes.is_some() || comment {
        return None;
    }
    let start = line
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let chain = &line[start..];
    if chain.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let mut parts: Vec<&str> = chain.split('.').collect();
    let word = parts.pop().unwrap_or_default();
    if parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    Some((parts, word))
}

/// The dotted callee of the innermost call still open at the end of `before` (`f(1, g(2), ` →
/// `f`), if it is a name or a dotted path.
fn open_call(before: &str) -> Option<&str> {
    let mut depth = 0i64;
    let mut at = None;
    for (i, c) in before.char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth > 0 => depth -= 1,
            '(' => {
                at = Some(i);
                break;
            }
            '[' | '{' => return None,
            _ => {}
        }
    }
    let callee = before[..at?].trim_end();
    let start = callee
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let callee = &callee[start..];
    (!callee.is_empty() && !callee.starts_with(|c: char| c.is_ascii_digit())).then_some(callee)
}

impl Interpreter {
    /// What may complete `before` (the cell's text up to the cursor).
    pub fn complete(&self, before: &str) -> Completions {
        let mut completions = Completions::default();
        let callee = open_call(before).and_then(|path| self.resolve(path));
        if let Some(function) = callee.as_ref().and_then(learner_function) {
            completions.signature = Some(signature(&function));
        }
        let binding = callee.as_ref().and_then(torch_binding);
        if let Some(binding) = binding {
            completions.signature = Some(torch_signature(binding));
        }
        let Some((path, word)) = dotted_tail(before) else {
            return completions;
        };
        completions.replace = word.chars().count();
        let mut items: Vec<Completion> = Vec::new();
        let mut offer = |label: &str, kind: &str| {
            if label.starts_with(word)
                && (word.starts_with('_') || !label.starts_with('_'))
                && !items.iter().any(|i| i.label == label)
            {
                items.push(Completion {
                    label: label.to_owned(),
                    kind: kind.to_owned(),
                });
            }
        };
        if path.is_empty() {
            if let Some(function) = callee.as_ref().and_then(learner_function) {
                for name in parameter_names(&function) {
                    offer(&format!("{name}="), "parameter");
                }
            }
            if let Some(binding) = binding {
                for signature in binding.signatures.iter().filter(|s| !s.hidden) {
                    for param in signature
                        .params
                        .iter()
                        .filter(|p| !matches!(p.name, "self" | "cls") && !p.name.starts_with('_'))
                    {
                        offer(&format!("{}=", param.name), "parameter");
                    }
                }
            }
            let mut names: Vec<(&String, &Value)> = self.globals.iter().collect();
            names.sort_by(|a, b| a.0.cmp(b.0));
            for (name, value) in names {
                offer(name, kind_of(value));
            }
            for name in super::builtins::names() {
                offer(name, "function");
            }
            for name in KEYWORDS {
                offer(name, "keyword");
            }
        } else if let Some(owner) = self.resolve(&path.join(".")) {
            for (name, kind) in attribute_names(&owner) {
                offer(&name, kind);
            }
        }
        completions.items = items;
        completions
    }

    /// The value a dotted path names, read without running anything.
    fn resolve(&self, path: &str) -> Option<Value> {
        let mut parts = path.split('.');
        let first = parts.next()?;
        let mut value = self
            .globals
            .get(first)
            .cloned()
            .or_else(|| super::builtins::lookup(first))?;
        for part in parts {
            value = match &value {
                Value::Instance(instance) => instance
                    .attributes
                    .borrow()
                    .get(part)
                    .cloned()
                    .or_else(|| instance.class.lookup(part))?,
                Value::Class(class) => class.lookup(part)?,
                Value::Module(_) => super::methods::get(&value, part).ok()?,
                _ => return None,
            };
        }
        Some(value)
    }
}

/// The learner function a call would run: a `def`, a bound method, or a class's `__init__`.
fn learner_function(value: &Value) -> Option<std::rc::Rc<Function>> {
    match value {
        Value::Function(f) => Some(f.clone()),
        Value::BoundMethod(_, f) => Some(f.clone()),
        Value::Class(class) => match &class.lookup("__init__")? {
            Value::Function(f) => Some(f.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The torch binding a call would run.
fn torch_binding(value: &Value) -> Option<&'static crate::torch::signature::Binding> {
    match value {
        Value::TorchFn(b) | Value::TorchMethod(_, b) => Some(b),
        Value::NnClass(name) => crate::torch::signature::binding("torch.nn", name),
        _ => None,
    }
}

/// A torch binding's signatures as its errors list them (`sum(Tensor input, *, …)`), one per
/// overload; a Python-level one as `help()` shows it.
fn torch_signature(binding: &crate::torch::signature::Binding) -> String {
    use crate::torch::signature::Kind;
    let name = binding.name();
    match binding.kind {
        Kind::Native => binding
            .signatures
            .iter()
            .filter(|s| !s.hidden)
            .map(|s| format!("{name}{}", s.display()))
            .collect::<Vec<_>>()
            .join("\n"),
        Kind::NoArgs => format!("{name}()"),
        Kind::OneArg => format!("{name}(arg)"),
        Kind::Python => {
            let last = binding
                .signatures
                .last()
                .map_or(String::new(), |s| s.python_display());
            let last = last.replacen("(self, ", "(", 1).replacen("(self)", "()", 1);
            let last = last.replacen("(cls, ", "(", 1).replacen("(cls)", "()", 1);
            format!("{name}{last}")
        }
    }
}

/// A function's parameter names, less `self`.
fn parameter_names(function: &Function) -> Vec<String> {
    let p = &function.parameters;
    p.posonlyargs
        .iter()
        .chain(p.args.iter())
        .chain(p.kwonlyargs.iter())
        .map(|a| a.parameter.name.id.to_string())
        .filter(|n| n != "self")
        .collect()
}

/// `name(a, b=…, *args, c, **kwargs)`, as the learner wrote the parameters.
fn signature(function: &Function) -> String {
    let p = &function.parameters;
    let with_default = |a: &ruff_python_ast::ParameterWithDefault| {
        let name = a.parameter.name.id.to_string();
        if a.default.is_some() {
            format!("{name}=…")
        } else {
            name
        }
    };
    let mut parts: Vec<String> = p
        .posonlyargs
        .iter()
        .chain(p.args.iter())
        .map(with_default)
        .filter(|n| n != "self")
        .collect();
    if let Some(vararg) = &p.vararg {
        parts.push(format!("*{}", vararg.name.id));
    } else if !p.kwonlyargs.is_empty() {
        parts.push("*".to_owned());
    }
    parts.extend(p.kwonlyargs.iter().map(with_default));
    if let Some(kwarg) = &p.kwarg {
        parts.push(format!("**{}", kwarg.name.id));
    }
    format!("{}({})", function.name, parts.join(", "))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Function(_) | Value::Builtin(_) | Value::ModuleFn(..) => "function",
        Value::TorchFn(b) if b.class.is_some() => "class",
        Value::TorchFn(_) => "function",
        Value::Class(_) | Value::NnClass(_) | Value::Type(_) | Value::ExcClass(_) => "class",
        Value::Module(_) => "module",
        _ => "variable",
    }
}

/// An object's attribute names, and what each is, as far as reading them has no effect.
fn attribute_names(owner: &Value) -> Vec<(String, &'static str)> {
    let owned = |names: &[&str], kind| names.iter().map(|n| ((*n).to_owned(), kind)).collect();
    match owner {
        Value::Module(module) => super::modules::members(module)
            .into_iter()
            .map(|(name, value)| (name, kind_of(&value)))
            .collect(),
        Value::Tensor(_) | Value::Parameter(_) => {
            let mut names: Vec<(String, &'static str)> =
                owned(crate::torch::tensor::PROPERTIES, "property");
            names.extend(owned(&crate::torch::names_in("Tensor"), "method"));
            names
        }
        Value::NdArray(_) => {
            let mut names: Vec<(String, &'static str)> =
                owned(crate::stdlib::numpy::methods::ARRAY_ATTRIBUTES, "property");
            names.extend(owned(
                crate::stdlib::numpy::methods::ARRAY_METHODS,
                "method",
            ));
            names
        }
        Value::List(_) => owned(super::methods::LIST_METHODS, "method"),
        Value::Dict(_) => owned(super::methods::DICT_METHODS, "method"),
        Value::Set(_) => owned(super::methods::SET_METHODS, "method"),
        Value::Str(_) => owned(super::strings::METHODS, "method"),
        Value::NnModule(_) => owned(&crate::torch::names_in("torch.nn.Module"), "method"),
        Value::Instance(instance) => {
            let mut names: Vec<(String, &'static str)> = instance
                .attributes
                .borrow()
                .iter()
                .map(|(n, v)| (n.clone(), kind_of(v)))
                .collect();
            let class = &instance.class;
            for c in std::iter::once(class).chain(class.ancestors.iter()) {
                names.extend(c.namespace.borrow().iter().map(|(n, v)| {
                    (
                        n.clone(),
                        if matches!(v, Value::Function(_)) {
                            "method"
                        } else {
                            kind_of(v)
                        },
                    )
                }));
            }
            if instance.module.is_some() {
                names.extend(owned(&crate::torch::names_in("torch.nn.Module"), "method"));
            }
            names.sort();
            names
        }
        _ => Vec::new(),
    }
}

/// What every object of a plain class has from `object` (CPython 3.11's `dir(object())`), and
/// what a class adds (`__dict__`, `__module__`, `__weakref__`).
const OBJECT_NAMES: &[&str] = &[
    "__class__",
    "__delattr__",
    "__dir__",
    "__doc__",
    "__eq__",
    "__format__",
    "__ge__",
    "__getattribute__",
    "__getstate__",
    "__gt__",
    "__hash__",
    "__init__",
    "__init_subclass__",
    "__le__",
    "__lt__",
    "__ne__",
    "__new__",
    "__reduce__",
    "__reduce_ex__",
    "__repr__",
    "__setattr__",
    "__sizeof__",
    "__str__",
    "__subclasshook__",
];
const CLASS_NAMES: &[&str] = &["__dict__", "__module__", "__weakref__"];

/// `dir(x)`: its attribute names, sorted. A learner's plain object or class lists what
/// CPython lists; the lab's built-in objects list their public names only (no dunders).
pub(crate) fn dir_names(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = match v {
        Value::Class(class) => std::iter::once(class)
            .chain(class.ancestors.iter())
            .flat_map(|c| c.namespace.borrow().keys().cloned().collect::<Vec<_>>())
            .collect(),
        other => attribute_names(other).into_iter().map(|(n, _)| n).collect(),
    };
    let plain = match v {
        Value::Class(c) => c.builtin_base.is_none() && !c.is_module && c.exception.is_none(),
        Value::Instance(i) => {
            i.class.builtin_base.is_none() && i.module.is_none() && i.class.exception.is_none()
        }
        _ => false,
    };
    if plain {
        names.extend(
            OBJECT_NAMES
                .iter()
                .chain(CLASS_NAMES)
                .map(|n| (*n).to_owned()),
        );
    }
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::{dotted_tail, open_call};

    #[test]
    fn the_tail_is_the_word_typed_and_the_path_before_it() {
        assert_eq!(dotted_tail("y = x.t"), Some((vec!["x"], "t")));
        assert_eq!(
            dotted_tail("torch.nn.Lin"),
            Some((vec!["torch", "nn"], "Lin"))
        );
        assert_eq!(dotted_tail("pri"), Some((vec![], "pri")));
        assert_eq!(dotted_tail("x."), Some((vec!["x"], "")));
        assert_eq!(dotted_tail("s = 'x.t"), None);
        assert_eq!(dotted_tail("# x.t"), None);
        assert_eq!(dotted_tail("1.5"), None);
    }

    #[test]
    fn the_open_call_is_the_innermost_unclosed_one() {
        assert_eq!(open_call("f(1, g(2), "), Some("f"));
        assert_eq!(open_call("model.forward(x, ke"), Some("model.forward"));
        assert_eq!(open_call("f(1)"), None);
        assert_eq!(open_call("xs = [1, "), None);
    }
}
