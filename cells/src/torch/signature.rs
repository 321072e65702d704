//! PyTorch's signatures for every binding of the lab, read once from `signatures/table.txt`
//! (generated from PyTorch 2.15 by `signatures/generate.py`): the schemas of PyTorch's C++
//! argument parser for native bindings (`sum(Tensor input, IntArrayRef[1]? dim, bool
//! keepdim=False, *, ScalarType? dtype=None)`), and the parameters of Python-level ones
//! (`Linear.__init__(self, in_features, out_features, bias=True, device=None, dtype=None)`).
//!
//! The table is the one declaration of what the lab binds: argument parsing, `dir()`, the
//! "no attribute" errors and completion's signatures all read it.

use std::collections::HashMap;
use std::sync::OnceLock;

static TABLE: &str = include_str!("signatures/table.txt");

/// How a binding takes its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Parsed by PyTorch's `PythonArgParser`: typed parameters, overloads tried in order.
    Native,
    /// A C method without parameters (CPython's `METH_NOARGS`: `t.item()`).
    NoArgs,
    /// A C method of exactly one positional parameter (`METH_O`: `g.manual_seed(seed)`).
    OneArg,
    /// A Python function, method or class: CPython binds the arguments to its parameters.
    Python,
}

/// One binding: a function, method or class a learner reaches by name.
#[derive(Debug)]
pub struct Binding {
    /// Where a learner reaches it: `torch.sum`, `Tensor.sum`, `torch.nn.Linear`,
    /// `torch.nn.Module.parameters`.
    pub key: &'static str,
    pub kind: Kind,
    /// A class's qualified name (`torch.optim.sgd.SGD`), as its repr shows it; `None` for a
    /// function or method.
    pub class: Option<&'static str>,
    /// A native binding's overloads in the order its parser tries them (deprecated ones last);
    /// a Python class's `__new__` and/or `__init__`, in the order Python calls them.
    pub signatures: Vec<Signature>,
}

impl Binding {
    /// The namespace it lives in (`torch`, `Tensor`, `torch.nn.functional`).
    pub fn namespace(&self) -> &'static str {
        self.key.rsplit_once('.').map_or("", |(ns, _)| ns)
    }

    /// Its own name (`sum`).
    pub fn name(&self) -> &'static str {
        self.key.rsplit_once('.').map_or(self.key, |(_, name)| name)
    }
}

/// One overload of a native binding, or the parameters of a Python one.
#[derive(Debug)]
pub struct Signature {
    /// How errors name it: `sum`, `Linear.__init__`, `TensorBase.item`.
    pub name: &'static str,
    pub params: Vec<Param>,
    /// Not listed in errors (`|hidden`, `|deprecated`).
    pub hidden: bool,
    pub deprecated: bool,
    /// Parameters without a default, all parameters, and those that can be given by position.
    pub min_args: usize,
    pub max_args: usize,
    pub max_pos_args: usize,
    /// A Python signature's `*args` and `**kwargs`.
    pub var_positional: Option<&'static str>,
    pub var_keyword: Option<&'static str>,
    /// The schema as the table has it (PyTorch's own text).
    pub text: &'static str,
}

#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    pub ty: Type,
    /// `IntArrayRef[2]`: how many ints one int stands for (0: a list is needed).
    pub size: usize,
    /// `?`, or a default of None: None is accepted.
    pub allow_none: bool,
    /// Has a default.
    pub optional: bool,
    pub keyword_only: bool,
    /// A Python parameter before `/`.
    pub positional_only: bool,
    /// The default as PyTorch (or Python's repr) writes it.
    pub default: Option<&'static str>,
    /// A Python number may stand for a tensor (PyTorch allows it for add, sub, mul, div, to…).
    pub numbers_as_tensors: bool,
}

impl Param {
    /// The NumPy names PyTorch also accepts for this parameter (`axis` for `dim`).
    pub fn numpy_names(&self) -> &'static [&'static str] {
        match self.name {
            "dim" => &["axis"],
            "keepdim" => &["keepdims"],
            "input" => &["x", "a", "x1"],
            "other" => &["x2"],
            _ => &[],
        }
    }
}

/// The parameter types of PyTorch's parser (`ParameterType`); `Any` for Python parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Tensor,
    Scalar,
    Int,
    SymInt,
    Double,
    Complex,
    TensorList,
    IntList,
    SymIntList,
    FloatList,
    Generator,
    Bool,
    Storage,
    Object,
    Dtype,
    Layout,
    MemoryFormat,
    QScheme,
    Device,
    Stream,
    String,
    Dimname,
    DimnameList,
    ScalarList,
    DispatchKeySet,
    Any,
}

impl Type {
    fn parse(text: &str) -> Option<Type> {
        Some(match text {
            "Tensor" => Type::Tensor,
            "Scalar" => Type::Scalar,
            "int64_t" => Type::Int,
            "SymInt" => Type::SymInt,
            "double" => Type::Double,
            "complex" => Type::Complex,
            "TensorList" | "c10::List<::std::optional<Tensor>>" => Type::TensorList,
            "IntArrayRef" => Type::IntList,
            "SymIntArrayRef" => Type::SymIntList,
            "ArrayRef<double>" => Type::FloatList,
            "Generator" => Type::Generator,
            "bool" => Type::Bool,
            "Storage" => Type::Storage,
            "PyObject*" => Type::Object,
            "ScalarType" => Type::Dtype,
            "Layout" => Type::Layout,
            "MemoryFormat" => Type::MemoryFormat,
            "QScheme" => Type::QScheme,
            "Device" => Type::Device,
            "Stream" => Type::Stream,
            "std::string" | "c10::string_view" | "std::string_view" => Type::String,
            "Dimname" => Type::Dimname,
            "DimnameList" => Type::DimnameList,
            "ScalarList" => Type::ScalarList,
            "DispatchKeySet" => Type::DispatchKeySet,
            _ => return None,
        })
    }

    /// How PyTorch names the type in its errors (`FunctionParameter::type_name`).
    pub fn name(self) -> &'static str {
        match self {
            Type::Tensor => "Tensor",
            Type::Scalar => "Number",
            Type::Int | Type::SymInt => "int",
            Type::Double => "float",
            Type::Complex => "complex",
            Type::TensorList => "tuple of Tensors",
            Type::IntList | Type::SymIntList => "tuple of ints",
            Type::FloatList => "tuple of floats",
            Type::Generator => "torch.Generator",
            Type::Bool => "bool",
            Type::Storage => "torch.Storage",
            Type::Object => "object",
            Type::Dtype => "torch.dtype",
            Type::Layout => "torch.layout",
            Type::MemoryFormat => "torch.memory_format",
            Type::QScheme => "torch.qscheme",
            Type::Device => "torch.device",
            Type::Stream => "torch.Stream",
            Type::String => "str",
            Type::Dimname => "name",
            Type::DimnameList => "tuple of names",
            Type::ScalarList => "tuple of Scalars",
            Type::DispatchKeySet => "DispatchKeySet",
            Type::Any => "object",
        }
    }
}

/// The functions PyTorch lets a Python number stand for a `Tensor` argument of
/// (`should_allow_numbers_as_tensors` in python_arg_parser.cpp).
const NUMBERS_AS_TENSORS: &[&str] = &[
    "add",
    "add_",
    "add_out",
    "div",
    "div_",
    "div_out",
    "divide",
    "divide_",
    "divide_out",
    "mul",
    "mul_",
    "mul_out",
    "multiply",
    "multiply_",
    "multiply_out",
    "sub",
    "sub_",
    "sub_out",
    "subtract",
    "subtract_",
    "subtract_out",
    "true_divide",
    "true_divide_",
    "true_divide_out",
    "to",
    "_to_copy",
    "copy_",
    "floor_divide",
    "floor_divide_",
    "floor_divide_out",
];

impl Signature {
    /// A native schema: `name(Type name=default, *, Type name)` then `|deprecated` or
    /// `|hidden` (FunctionSignature's constructor).
    fn native(text: &'static str) -> Option<Signature> {
        let (head, tail) = text.split_once('(')?;
        let close = tail.rfind(')')?;
        let (inner, flags) = (&tail[..close], &tail[close + 1..]);
        let numbers_as_tensors = NUMBERS_AS_TENSORS.contains(&head);
        let mut params = Vec::new();
        let mut keyword_only = false;
        for part in inner.split(", ").filter(|p| !p.is_empty()) {
            if part == "*" {
                keyword_only = true;
                continue;
            }
            let (kind, rest) = part.split_once(' ')?;
            let allow_none = kind.contains('?');
            let kind = kind.replace('?', "");
            let (kind, size) = match kind.split_once('[') {
                Some((k, n)) => (k.to_owned(), n.trim_end_matches(']').parse().unwrap_or(0)),
                None => (kind, 0),
            };
            let (name, default) = match rest.split_once('=') {
                Some((n, d)) => (n, Some(d)),
                None => (rest, None),
            };
            params.push(Param {
                name,
                ty: Type::parse(&kind)?,
                size,
                allow_none: allow_none || default == Some("None"),
                optional: default.is_some(),
                keyword_only,
                positional_only: false,
                default,
                numbers_as_tensors,
            });
        }
        Some(Signature::with_counts(
            head,
            params,
            flags == "|hidden" || flags == "|deprecated",
            flags == "|deprecated",
            None,
            None,
            text,
        ))
    }

    /// A Python signature as the generator writes it: `qualname(a, b=1, /, c, *args, d, **kw)`.
    fn python(text: &'static str) -> Option<Signature> {
        let (name, tail) = text.split_once('(')?;
        let inner = tail.strip_suffix(')')?;
        let mut params = Vec::new();
        let (mut keyword_only, mut var_positional, mut var_keyword) = (false, None, None);
        for part in split_top_level(inner) {
            if part == "*" {
                keyword_only = true;
            } else if part == "/" {
                params
                    .iter_mut()
                    .for_each(|p: &mut Param| p.positional_only = true);
            } else if let Some(rest) = part.strip_prefix("**") {
                var_keyword = Some(rest);
            } else if let Some(rest) = part.strip_prefix('*') {
                var_positional = Some(rest);
                keyword_only = true;
            } else {
                let (name, default) = match part.split_once('=') {
                    Some((n, d)) => (n, Some(d)),
                    None => (part, None),
                };
                params.push(Param {
                    name,
                    ty: Type::Any,
                    size: 0,
                    allow_none: true,
                    optional: default.is_some(),
                    keyword_only,
                    positional_only: false,
                    default,
                    numbers_as_tensors: false,
                });
            }
        }
        Some(Signature::with_counts(
            name,
            params,
            false,
            false,
            var_positional,
            var_keyword,
            text,
        ))
    }

    fn with_counts(
        name: &'static str,
        params: Vec<Param>,
        hidden: bool,
        deprecated: bool,
        var_positional: Option<&'static str>,
        var_keyword: Option<&'static str>,
        text: &'static str,
    ) -> Signature {
        let min_args = params.iter().filter(|p| !p.optional).count();
        let max_pos_args = params.iter().filter(|p| !p.keyword_only).count();
        Signature {
            name,
            max_args: params.len(),
            min_args,
            max_pos_args,
            params,
            hidden,
            deprecated,
            var_positional,
            var_keyword,
            text,
        }
    }

    /// How PyTorch lists the signature in its errors (`FunctionSignature::toString`):
    /// `(Tensor input, *, torch.dtype dtype = None)`.
    pub fn display(&self) -> String {
        let mut out = String::from("(");
        let mut keyword_already = false;
        for (i, param) in self.params.iter().enumerate() {
            if i != 0 {
                out.push_str(", ");
            }
            if param.keyword_only && !keyword_already {
                out.push_str("*, ");
                keyword_already = true;
            }
            out.push_str(param.ty.name());
            out.push(' ');
            out.push_str(param.name);
            if let Some(default) = param.default {
                out.push_str(" = ");
                out.push_str(default);
            }
        }
        out.push(')');
        out
    }

    /// Where a parameter is, by name.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// A Python signature as `help()` shows it (for completion): `(input, inplace=False)`.
    pub fn python_display(&self) -> String {
        let start = self.text.find('(').unwrap_or(0);
        self.text[start..].to_owned()
    }
}

/// Splits a Python parameter list at its top-level commas (a default may be a tuple).
fn split_top_level(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, 0, None);
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{' | '<') => depth += 1,
            (None, ')' | ']' | '}' | '>') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        parts.push(last);
    }
    parts
}

/// Every binding, in the table's order, found by namespace then name (without building a key
/// string: attribute reads look bindings up on the hot path).
pub struct Table {
    bindings: Vec<Binding>,
    by_name: HashMap<&'static str, HashMap<&'static str, usize>>,
}

impl Table {
    fn parse(text: &'static str) -> Table {
        let mut bindings: Vec<Binding> = Vec::new();
        let mut current: Option<Binding> = None;
        for line in text.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if let Some(header) = line.strip_prefix('@') {
                bindings.extend(current.take());
                let mut fields = header.split(' ');
                let (kind, key) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
                let class = match (fields.next(), fields.next()) {
                    (Some("class"), path) => path,
                    _ => None,
                };
                let kind = match kind {
                    "native" => Kind::Native,
                    "noarg" => Kind::NoArgs,
                    "onearg" => Kind::OneArg,
                    _ => Kind::Python,
                };
                current = Some(Binding {
                    key,
                    kind,
                    class,
                    signatures: Vec::new(),
                });
            } else if let Some(binding) = current.as_mut() {
                let signature = match binding.kind {
                    Kind::Native => Signature::native(line),
                    _ => Signature::python(line),
                };
                // The generator writes only what this reads; a line it cannot read is left out
                // (and the table's test names it).
                if let Some(signature) = signature {
                    binding.signatures.push(signature);
                }
            }
        }
        bindings.extend(current.take());
        let mut by_name: HashMap<&'static str, HashMap<&'static str, usize>> = HashMap::new();
        for (at, binding) in bindings.iter().enumerate() {
            by_name
                .entry(binding.namespace())
                .or_default()
                .insert(binding.name(), at);
        }
        Table { bindings, by_name }
    }

    /// The binding `namespace.name`.
    pub fn find(&self, namespace: &str, name: &str) -> Option<&Binding> {
        let at = *self.by_name.get(namespace)?.get(name)?;
        self.bindings.get(at)
    }

    /// The binding of a full key (`torch.sum`).
    #[cfg(test)]
    pub fn get(&self, key: &str) -> Option<&Binding> {
        let (namespace, name) = key.rsplit_once('.')?;
        self.find(namespace, name)
    }

    /// The bindings in `namespace`, in the table's order.
    pub fn names_in<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a Binding> + 'a {
        self.bindings
            .iter()
            .filter(move |b| b.namespace() == namespace)
    }

    #[cfg(test)]
    pub fn all(&self) -> impl Iterator<Item = &Binding> {
        self.bindings.iter()
    }
}

/// The table, read at first use.
pub fn table() -> &'static Table {
    static PARSED: OnceLock<Table> = OnceLock::new();
    PARSED.get_or_init(|| Table::parse(TABLE))
}

/// The binding `namespace.name`, if the lab has it.
pub fn binding(namespace: &str, name: &str) -> Option<&'static Binding> {
    table().find(namespace, name)
}

static NAMES: &str = include_str!("signatures/names.txt");

/// Whether PyTorch 2.15 has a public `name` in `namespace` (that the lab may not have yet).
pub fn pytorch_has(namespace: &str, name: &str) -> bool {
    let mut lines = NAMES.lines();
    while let Some(line) = lines.next() {
        if line.strip_prefix('@') == Some(namespace) {
            return lines
                .next()
                .is_some_and(|names| names.split(' ').any(|n| n == name));
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_table_is_read() {
        let lines = TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with('@') && !l.is_empty())
            .count();
        let read: usize = table().all().map(|b| b.signatures.len()).sum();
        assert_eq!(read, lines);
        assert!(table().all().all(|b| !b.signatures.is_empty()));
    }

    #[test]
    fn native_schemas_show_as_pytorch_lists_them() {
        let sum = table().get("torch.sum").unwrap();
        let shown: Vec<String> = sum.signatures.iter().map(Signature::display).collect();
        assert_eq!(
            shown,
            [
                "(Tensor input, *, torch.dtype dtype = None)",
                "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"
            ]
        );
        let add = table().get("Tensor.add_").unwrap();
        assert!(!add.signatures[0].deprecated && add.signatures[1].deprecated);
        let dim = &sum.signatures[1].params[1];
        assert_eq!((dim.ty, dim.size, dim.allow_none), (Type::IntList, 1, true));
    }

    #[test]
    fn python_signatures_keep_self_defaults_and_markers() {
        let linear = table().get("torch.nn.Linear").unwrap();
        let init = &linear.signatures[0];
        assert_eq!(init.name, "Linear.__init__");
        let names: Vec<&str> = init.params.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "self",
                "in_features",
                "out_features",
                "bias",
                "device",
                "dtype"
            ]
        );
        assert_eq!(init.params[3].default, Some("True"));
        let adam = &table().get("torch.optim.Adam").unwrap().signatures[0];
        let betas = &adam.params[adam.position("betas").unwrap()];
        assert_eq!(betas.default, Some("(0.9, 0.999)"));
        assert!(adam.params[adam.position("maximize").unwrap()].keyword_only);
        let is_tensor = &table().get("torch.is_tensor").unwrap().signatures[0];
        assert!(is_tensor.params[0].positional_only);
    }

    #[test]
    fn pytorch_names_are_known_beyond_the_lab() {
        assert!(pytorch_has("torch", "sin"));
        assert!(pytorch_has("torch.nn", "LSTM"));
        assert!(!pytorch_has("torch", "sine"));
    }
}
