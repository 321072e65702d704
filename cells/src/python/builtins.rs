//! The builtin functions learners use: `print len range str int float bool abs min max sum round
//! list tuple dict repr type isinstance enumerate zip map filter iter next sorted any all getattr
//! hasattr setattr id super`, and the builtin types (`int`, `list`, …) as values.

use std::rc::Rc;

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::operators::{compare, iterate};
use super::value::{
    Cut, MAX_REPR_DEPTH, MAX_REPR_PARTS, ReprContext, Value, address, as_f64, range_len,
};

/// The builtin types: calling one converts (`int("3")`), and `isinstance` tests against it.
pub const TYPES: &[&str] = &[
    "int", "float", "str", "bool", "list", "tuple", "dict", "set", "object", "bytes", "complex",
];

const NAMES: &[&str] = &[
    "print",
    "len",
    "range",
    "abs",
    "min",
    "max",
    "sum",
    "round",
    "repr",
    "type",
    "isinstance",
    "issubclass",
    "enumerate",
    "reversed",
    "zip",
    "map",
    "filter",
    "iter",
    "next",
    "sorted",
    "any",
    "all",
    "getattr",
    "hasattr",
    "setattr",
    "delattr",
    "vars",
    "id",
    "callable",
    "input",
    "open",
    "dir",
    "exec",
    "eval",
    "property",
    "staticmethod",
    "classmethod",
    "super",
    "chr",
    "ord",
    "pow",
    "divmod",
    "hash",
    "ascii",
    "bin",
    "hex",
    "oct",
    "format",
];

/// The builtins that take an iterable first and consume it whole.
const CONSUMERS: &[&str] = &[
    "list", "tuple", "dict", "set", "sum", "min", "max", "sorted", "any", "all",
];

/// Every builtin's name (types first).
pub fn names() -> impl Iterator<Item = &'static str> {
    TYPES.iter().chain(NAMES).copied()
}

/// A builtin by name, for name lookup after locals and globals.
pub fn lookup(name: &str) -> Option<Value> {
    // The value a binary method returns to let the other operand answer.
    if name == "NotImplemented" {
        return Some(Value::Builtin("NotImplemented"));
    }
    if name == "Ellipsis" {
        return Some(Value::ELLIPSIS);
    }
    if let Some(t) = TYPES.iter().find(|n| **n == name) {
        return Some(Value::Type(t));
    }
    NAMES
        .iter()
        .find(|n| **n == name)
        .map(|n| Value::Builtin(n))
}

/// Builtins that read the values of the tensors they are given (a sync point for GPU tensors).
/// Builtins that take an int subclass's object (or a float's or str's) as its plain value.
const TAKE_VALUES: &[&str] = &[
    "range", "round", "divmod", "pow", "abs", "chr", "ord", "hex", "oct", "bin",
];

const READ_VALUES: &[&str] = &[
    "bool", "float", "int", "round", "abs", "sum", "min", "max", "sorted", "any", "all",
];

impl Interpreter {
    /// `print(*objects, sep=' ', end='\n', file=None, flush=False)`: to the cell's output, or
    /// through `file.write` (`sys.stderr`, an `io.StringIO`, a learner's object, an open file).
    async fn print(&mut self, args: Args) -> Result<Value, Flow> {
        let piece = |key: &str, default: &str| match args.keyword(key) {
            None | Some(Value::None) => Ok(default.to_owned()),
            Some(Value::Str(s)) => Ok(s.to_string()),
            Some(other) => Err(PyException::new(
                ExcType::TypeError,
                format!("{key} must be None or a string, not {}", other.type_name()),
            )),
        };
        let (sep, end) = (piece("sep", " ")?, piece("end", "\n")?);
        if let Some((key, _)) = args
            .keywords
            .iter()
            .find(|(k, _)| !matches!(&**k, "sep" | "end" | "file" | "flush"))
        {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("'{key}' is an invalid keyword argument for print()"),
            )
            .into());
        }
        // As CPython: each object's text, each separator and the end are written one by one.
        let mut pieces = Vec::with_capacity(args.positional.len() * 2);
        for (i, v) in args.positional.iter().enumerate() {
            if i > 0 {
                pieces.push(sep.clone());
            }
            pieces.push(self.text_of(v, true).await?);
        }
        pieces.push(end);
        match args.keyword("file") {
            None | Some(Value::None) => self.stdout.borrow_mut().push_str(&pieces.concat()),
            Some(file) => {
                let file = file.clone();
                let write = self.attribute(&file, "write").await?;
                for piece in pieces {
                    self.call(&write, Args::positional(vec![Value::str(&piece)]))
                        .await?;
                }
            }
        }
        Ok(Value::None)
    }

    /// Calls a builtin. Those that need the interpreter (to iterate lazily, to call learner
    /// methods, to read attributes) are answered here; the rest by [`call`].
    pub(crate) async fn call_builtin(&mut self, name: &str, mut args: Args) -> Result<Value, Flow> {
        super::builtin_arity::check(name, &mut args)?;
        if READ_VALUES.contains(&name) {
            for arg in &args.positional {
                self.fetch_values(arg).await?;
            }
        }
        // `dict(counter)`, `len(ordered)`, `sum(my_list)`: a container subclass's object is its
        // container, unless its class defines how it iterates or counts.
        if CONSUMERS.contains(&name) || name == "len" {
            for arg in args.positional.iter_mut() {
                let container = match &*arg {
                    Value::Instance(i)
                        if i.class.lookup("__iter__").is_none()
                            && i.class.lookup("__len__").is_none() =>
                    {
                        i.builtin.borrow().clone()
                    }
                    _ => None,
                };
                if let Some(container) = container {
                    *arg = container;
                }
            }
        }
        // `range(count)`, `round(celsius)`, `ord(tag)`: an int, float or str subclass's object
        // is its value.
        if TAKE_VALUES.contains(&name) {
            for arg in args.positional.iter_mut() {
                if let Value::Instance(_) = arg
                    && let value @ (Value::Int(_) | Value::Float(_) | Value::Str(_)) =
                        arg.resolved().into_owned()
                {
                    *arg = value;
                }
            }
        }
        // `int(x)` and `float(x)` of a learner's object ask it, as CPython does: `__int__` then
        // `__index__`; `__float__` then `__index__`.
        if let ("int" | "float", [object @ Value::Instance(i)]) = (name, args.positional.as_slice())
        {
            let wanted = if name == "int" {
                "__int__"
            } else {
                "__float__"
            };
            if let Some(dunder) = [wanted, "__index__"]
                .into_iter()
                .find(|d| i.class.lookup(d).is_some())
            {
                let object = object.clone();
                let made = Box::pin(self.call_dunder(&object, dunder, Vec::new())).await?;
                let fits = match (dunder, &made) {
                    ("__float__", Value::Float(_)) => true,
                    ("__float__", _) => false,
                    (_, Value::Int(_) | Value::BigInt(_) | Value::Bool(_)) => true,
                    _ => false,
                };
                if !fits {
                    let expected = if dunder == "__float__" {
                        "float"
                    } else {
                        "int"
                    };
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "{dunder} returned non-{expected} (type {})",
                            made.type_name()
                        ),
                    )
                    .into());
                }
                return Ok(call(self, name, Args::positional(vec![made]))?);
            }
            // An int or str subclass's object converts as its value does.
            let value = object.resolved().into_owned();
            if !matches!(value, Value::Instance(_)) {
                return Ok(call(self, name, Args::positional(vec![value]))?);
            }
        }
        match name {
            "iter" | "next" | "enumerate" | "zip" | "map" | "filter" | "reversed" => {
                return self.iterator_builtin(name, args).await;
            }
            "format" => {
                let value = args.positional.first().cloned().unwrap_or(Value::None);
                let spec = match args.get(1, "format_spec") {
                    None => String::new(),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("format() argument 2 must be str, not {}", other.type_name()),
                        )
                        .into());
                    }
                };
                return Ok(Value::str(
                    &Box::pin(self.format_object(&value, &spec)).await?,
                ));
            }
            // A metaclass's `__instancecheck__` / `__subclasscheck__` answers for its classes
            // (`abc.ABCMeta` counts registered virtual subclasses).
            "isinstance" | "issubclass"
                if args.positional.len() == 2 && hooked_check(name, &args.positional[1]) =>
            {
                let hook = if name == "isinstance" {
                    "__instancecheck__"
                } else {
                    "__subclasscheck__"
                };
                let classes = match &args.positional[1] {
                    Value::Tuple(classes) => classes.to_vec(),
                    one => vec![one.clone()],
                };
                for class in &classes {
                    let verdict = if hooked_check(name, class) {
                        let answer = Box::pin(self.call_dunder(
                            class,
                            hook,
                            vec![args.positional[0].clone()],
                        ))
                        .await?;
                        self.truth(&answer).await?
                    } else if name == "isinstance" {
                        is_instance(&args.positional[0], class)?
                    } else {
                        is_subclass(&args.positional[0], class)?
                    };
                    if verdict {
                        return Ok(Value::Bool(true));
                    }
                }
                return Ok(Value::Bool(false));
            }
            // `set(objects)`: one of each set of learners' objects equal by `__eq__`.
            "set"
                if matches!(
                    args.positional.as_slice(),
                    [Value::List(_) | Value::Tuple(_) | Value::Iterator(_)]
                ) =>
            {
                let items = Box::pin(self.collect(&args.positional[0])).await?;
                return Ok(Value::set(Box::pin(self.distinct_keys(items)).await?)?);
            }
            "exec" | "eval" => return Box::pin(self.exec_or_eval(name, args)).await,
            // `open(...)` is `io.open`, on the notebook's files.
            "open" => {
                let io = Box::pin(self.import("io")).await?;
                let open = self.get_attribute(&io, "open")?;
                return Box::pin(self.call(&open, args)).await;
            }
            // `abs(x)` and `round(x[, n])` of a learner's object ask it.
            "abs" | "round"
                if matches!(args.positional.first(), Some(Value::Instance(i))
                    if i.class.lookup(&format!("__{name}__")).is_some()) =>
            {
                let mut rest = args.positional.clone();
                let object = rest.remove(0);
                let dunder = format!("__{name}__");
                return Box::pin(self.call_dunder(&object, &dunder, rest)).await;
            }
            "bool" if matches!(args.positional.as_slice(), [Value::Instance(_)]) => {
                let object = args.positional[0].clone();
                return Ok(Value::Bool(Box::pin(self.truth(&object)).await?));
            }
            "len" => {
                if let [object] = args.positional.as_slice() {
                    match object {
                        Value::Instance(_) | Value::Class(_)
                            if object
                                .dunder_class()
                                .is_some_and(|c| c.lookup("__len__").is_some()) =>
                        {
                            let object = object.clone();
                            return self.call_dunder(&object, "__len__", Vec::new()).await;
                        }
                        Value::TensorDataset(_) => {
                            let object = object.clone();
                            return Ok(Value::Int(self.dataset_len(&object).await? as i64));
                        }
                        Value::DataLoader(loader) => {
                            let loader = loader.clone();
                            return Ok(Value::Int(self.loader_len(&loader).await? as i64));
                        }
                        Value::NnModule(m) if crate::torch::nn::module::holds_module_list(m) => {
                            return Ok(Value::Int(m.children().len() as i64));
                        }
                        _ => {}
                    }
                }
            }
            "getattr" | "hasattr" => {
                let (object, attribute) = match args.positional.as_slice() {
                    [object, Value::Str(a), ..] => (object.clone(), a.clone()),
                    _ => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("{name}(): attribute name must be string"),
                        )
                        .into());
                    }
                };
                let found = self.attribute(&object, &attribute).await;
                return match (name, found, args.positional.get(2)) {
                    ("hasattr", Err(Flow::Error(e)), _) if e.kind == ExcType::AttributeError => {
                        Ok(Value::Bool(false))
                    }
                    ("hasattr", found, _) => found.map(|_| Value::Bool(true)),
                    (_, Err(Flow::Error(e)), Some(default))
                        if e.kind == ExcType::AttributeError =>
                    {
                        Ok(default.clone())
                    }
                    (_, found, _) => found,
                };
            }
            "setattr" => {
                let [object, Value::Str(attribute), value] = args.positional.as_slice() else {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "setattr expected 3 arguments: object, name (a string), value",
                    )
                    .into());
                };
                let (object, attribute, value) = (object.clone(), attribute.clone(), value.clone());
                self.assign_attribute(&object, &attribute, value).await?;
                return Ok(Value::None);
            }
            "hash"
                if matches!(
                    args.positional.as_slice(),
                    [Value::Instance(_) | Value::Tuple(_)]
                ) =>
            {
                let object = args.positional[0].clone();
                return Ok(Value::Int(Box::pin(self.key_hash(&object)).await?));
            }
            "delattr" => {
                let [object, Value::Str(attribute)] = args.positional.as_slice() else {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "delattr expected 2 arguments: object, name (a string)",
                    )
                    .into());
                };
                let removed = match object {
                    Value::Class(c) => c
                        .namespace
                        .borrow_mut()
                        .shift_remove(&**attribute)
                        .is_some(),
                    Value::Instance(i) => i
                        .attributes
                        .borrow_mut()
                        .shift_remove(&**attribute)
                        .is_some(),
                    Value::Function(f) => f
                        .attributes
                        .borrow_mut()
                        .shift_remove(&**attribute)
                        .is_some(),
                    _ => false,
                };
                if !removed {
                    return Err(PyException::new(
                        ExcType::AttributeError,
                        format!(
                            "'{}' object has no attribute '{attribute}'",
                            object.type_name()
                        ),
                    )
                    .into());
                }
                return Ok(Value::None);
            }
            "vars" => {
                let [object] = args.positional.as_slice() else {
                    return Err(PyException::new(
                        ExcType::NotImplementedError,
                        "vars() without an argument is not in the lab yet (give it the object)",
                    )
                    .into());
                };
                let object = object.clone();
                return Ok(self.get_attribute(&object, "__dict__")?);
            }
            // `object.__setattr__(self, name, value)`: past the class's own `__setattr__`.
            "__object_setattr__" => {
                let [object, Value::Str(attribute), value] = args.positional.as_slice() else {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "expected 3 arguments: object, name (a string), value",
                    )
                    .into());
                };
                let (object, attribute, value) = (object.clone(), attribute.clone(), value.clone());
                self.set_attribute(&object, &attribute, value)?;
                return Ok(Value::None);
            }
            "print" => return self.print(args).await,
            "ascii" => {
                let object = args.positional.first().cloned().unwrap_or(Value::None);
                return Ok(Value::str(&super::strings::ascii(
                    &self.text_of(&object, false).await?,
                )));
            }
            "str" | "repr" => {
                for v in args.positional.iter_mut() {
                    let text = self.text_of(v, name != "repr").await?;
                    if name == "repr" {
                        return Ok(Value::str(&text));
                    }
                    *v = Value::str(&text);
                }
            }
            _ => {}
        }
        if CONSUMERS.contains(&name)
            && !(matches!(name, "min" | "max") && args.positional.len() > 1)
            && let Some(first) = args.positional.first_mut()
            && !matches!(
                first,
                Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Str(_)
            )
        {
            let items = self.collect(&first.clone()).await?;
            *first = Value::list(items);
        }
        // `bytes(generator)`: its ints are drawn first (they may run learner code).
        if let ("bytes", [first @ (Value::Iterator(_) | Value::Instance(_))]) =
            (name, args.positional.as_mut_slice())
        {
            let items = self.collect(&first.clone()).await?;
            *first = Value::list(items);
        }
        if name == "sum"
            && let Some(Value::List(items)) = args.positional.first()
            && super::dunders::has_learner_objects(&*items.borrow())
        {
            let items = items.borrow().clone();
            let mut total = args.get(1, "start").cloned().unwrap_or(Value::Int(0));
            for item in items {
                total = match self
                    .binary_dunder(ruff_python_ast::Operator::Add, &total, &item, false)
                    .await?
                {
                    Some(sum) => sum,
                    None => super::operators::binary(
                        ruff_python_ast::Operator::Add,
                        &total,
                        &item,
                        false,
                    )?,
                };
            }
            return Ok(total);
        }
        if matches!(name, "sorted" | "min" | "max") {
            if let Some(key) = args.keyword("key").filter(|k| !matches!(k, Value::None)) {
                return self.by_key(name, Some(key.clone()), &args).await;
            }
            let learned = match args.positional.as_slice() {
                [Value::List(items)] => super::dunders::has_learner_objects(&*items.borrow()),
                many => super::dunders::has_learner_objects(many),
            };
            if learned {
                return self.by_key(name, None, &args).await;
            }
        }
        call(self, name, args).map_err(Flow::from)
    }

    /// `str(v)` (`as_str`) or `repr(v)`, with learners' `__str__`/`__repr__`, also of objects
    /// inside containers.
    pub(crate) async fn text_of(&mut self, v: &Value, as_str: bool) -> Result<String, Flow> {
        self.fetch_values(v).await?;
        // A class whose metaclass says how it shows (`<enum 'Color'>`).
        if let Value::Class(c) = v
            && let Some(meta) = &c.metaclass
        {
            for dunder in ["__str__", "__repr__"]
                .into_iter()
                .skip(usize::from(!as_str))
            {
                if meta.lookup(dunder).is_some() {
                    return Ok(self.call_dunder(v, dunder, Vec::new()).await?.str_text());
                }
            }
        }
        let container = matches!(
            v,
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
        );
        if let Value::Instance(i) = v
            && as_str
        {
            if i.class.lookup("__str__").is_some() {
                return Ok(self.call_dunder(v, "__str__", Vec::new()).await?.str_text());
            }
            // `str.__str__` (an int's `str()` is its `repr()`, a learner's too).
            if let Some(Value::Str(text)) = &*i.builtin.borrow() {
                return Ok(text.to_string());
            }
            if i.class.exception.is_some() {
                let error = PyException {
                    args: super::exception::ExceptionArgs::Object(Rc::new(v.clone())),
                    ..PyException::new(ExcType::Exception, "")
                };
                return Ok(match error.args().as_slice() {
                    [] => String::new(),
                    [one] => Box::pin(self.text_of(one, true)).await?,
                    many => Box::pin(self.text_of(&Value::Tuple(many.into()), true)).await?,
                });
            }
        }
        if let Value::BigInt(n) = v {
            return Ok(super::int::decimal(n)?);
        }
        // A tensor's str is its repr, which may fail (reading the values is a sync point).
        let leaf = !matches!(
            v,
            Value::Instance(_) | Value::NnModule(_) | Value::Tensor(_) | Value::Parameter(_)
        );
        if as_str && !container && leaf {
            return Ok(v.str_text());
        }
        let mut cx = ReprContext::default();
        for object in learner_objects(v) {
            let text = self.call_dunder(&object, "__repr__", Vec::new()).await?;
            if let Value::Instance(i) = &object {
                cx.learned.insert(address(i), text.str_text());
            }
        }
        for module in modules_in(v) {
            let text = Box::pin(self.module_repr(&module, true)).await?;
            cx.modules.insert(module.id(), text);
        }
        let text = v.repr_in(&mut cx);
        if let Some(error) = cx.failed {
            return Err(PyException::from(error).into());
        }
        match cx.cut {
            None => Ok(text),
            Some(Cut::TooDeep) => Err(PyException::new(
                ExcType::RecursionError,
                "maximum recursion depth exceeded while getting the repr of an object",
            )
            .into()),
            Some(Cut::Digits) => Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "Exceeds the limit ({} digits) for integer string conversion; use \
                     sys.set_int_max_str_digits() to increase the limit",
                    super::int::MAX_STR_DIGITS
                ),
            )
            .into()),
            Some(Cut::TooLong) => Err(PyException::new(
                ExcType::MemoryError,
                format!(
                    "this repr would show more than {MAX_REPR_PARTS} containers: too long for the lab"
                ),
            )
            .into()),
        }
    }

    /// `sorted`, `min` and `max` with `key=` (or of learners' objects, ordered by their
    /// `__lt__`): the key of each item decides, ties keep their order.
    async fn by_key(&mut self, name: &str, key: Option<Value>, args: &Args) -> Result<Value, Flow> {
        let items = match args.positional.as_slice() {
            [one] => iterate(one)?,
            many => many.to_vec(),
        };
        let mut keyed = Vec::with_capacity(items.len());
        for item in items {
            let k = match &key {
                Some(key) => self.call(key, Args::positional(vec![item.clone()])).await?,
                None => item.clone(),
            };
            keyed.push((k, item));
        }
        if super::dunders::has_learner_objects(keyed.iter().map(|(k, _)| k)) {
            let empty = keyed.is_empty();
            let reverse = name == "max" || (name == "sorted" && reversed(args));
            let sorted = self.sort_by_learned_order(keyed, reverse).await?;
            let mut items = sorted.into_iter().map(|(_, v)| v);
            return match name {
                "sorted" => Ok(Value::list(items.collect())),
                _ if empty => Ok(nothing_to_compare(name, args)?),
                _ => Ok(items.next().unwrap_or(Value::None)),
            };
        }
        let mut failure = None;
        let result = match name {
            "sorted" => {
                super::methods::sort_by_value(&mut keyed, |(k, _)| k, reversed(args))?;
                Value::list(keyed.into_iter().map(|(_, v)| v).collect())
            }
            _ => {
                let wanted = if name == "min" {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Greater
                };
                let mut best: Option<(Value, Value)> = None;
                for pair in keyed {
                    best = match best {
                        Some(b) if super::methods::order(&pair.0, &b.0, &mut failure) != wanted => {
                            Some(b)
                        }
                        _ => Some(pair),
                    };
                }
                match best {
                    Some((_, v)) => v,
                    None => nothing_to_compare(name, args)?,
                }
            }
        };
        match failure {
            Some(e) => Err(e.into()),
            None => Ok(result),
        }
    }
}

/// What `min()` or `max()` of nothing gives: its `default=` where given, else CPython's error.
fn nothing_to_compare(name: &str, args: &Args) -> Result<Value, PyException> {
    args.keyword("default").cloned().ok_or_else(|| {
        PyException::new(
            ExcType::ValueError,
            format!("{name}() arg is an empty sequence"),
        )
    })
}

pub fn call(interp: &mut Interpreter, name: &str, args: Args) -> Result<Value, PyException> {
    let first = || args.positional.first().cloned().unwrap_or(Value::None);
    Ok(match name {
        "__str_maketrans__" => super::strings::maketrans(&args)?,
        "len" => {
            let v = first();
            let n = match &v {
                Value::Str(s) if s.is_ascii() => s.len(),
                Value::Str(s) => s.chars().count(),
                Value::Bytes(b) => b.len(),
                Value::List(items) | Value::Set(items) => items.borrow().len(),
                Value::Tuple(items) => items.len(),
                Value::Dict(entries) => entries.borrow().len(),
                Value::Tensor(t) if t.dim() == 0 => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "len() of a 0-d tensor",
                    ));
                }
                Value::Tensor(t) => t.shape()[0],
                Value::NdArray(a) if a.ndim() == 0 => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "len() of unsized object",
                    ));
                }
                Value::NdArray(a) => a.shape[0],
                Value::Range { start, stop, step } => range_len(*start, *stop, *step) as usize,
                other => iterate(other)
                    .map_err(|_| {
                        PyException::new(
                            ExcType::TypeError,
                            format!("object of type '{}' has no len()", other.type_name()),
                        )
                    })?
                    .len(),
            };
            Value::Int(n as i64)
        }
        "range" => {
            let ints: Vec<i64> = args
                .positional
                .iter()
                .map(super::value::as_index)
                .collect::<Result<_, _>>()?;
            let (start, stop, step) = match ints.as_slice() {
                [stop] => (0, *stop, 1),
                [start, stop] => (*start, *stop, 1),
                [start, stop, step] => (*start, *stop, *step),
                _ => (0, 0, 1),
            };
            if step == 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "range() arg 3 must not be zero",
                ));
            }
            Value::Range { start, stop, step }
        }
        // A cell has no keyboard to read: say so at once rather than wait for ever.
        "input" => {
            return Err(PyException::new(
                ExcType::Other("OSError".into()),
                "input() reads from the keyboard, which lab cells do not have: set the value in the code instead",
            ));
        }
        "bytes" => super::bytes::construct(&args)?,
        "complex" => {
            let mut parts = args.positional.clone();
            for (keyword, value) in &args.keywords {
                match (keyword.as_str(), parts.len()) {
                    ("real", 0) | ("imag", 1) => parts.push(value.clone()),
                    ("imag", 0) => parts.extend([Value::Int(0), value.clone()]),
                    _ => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("complex() got an unexpected keyword argument '{keyword}'"),
                        ));
                    }
                }
            }
            super::complex::construct(&parts)?
        }
        // `dir()`: the names of the scope it runs in; `dir(x)`: x's attributes.
        "dir" => {
            let mut names: Vec<String> = match args.positional.first() {
                Some(v) => super::completion::dir_names(v),
                None => match interp.stack.last().and_then(|a| a.locals.as_ref()) {
                    Some(locals) => locals.borrow().keys().cloned().collect(),
                    None => interp.globals.keys().cloned().collect(),
                },
            };
            names.sort();
            Value::list(names.iter().map(|n| Value::str(n)).collect())
        }
        "str" => Value::str(
            &args
                .positional
                .first()
                .map_or(String::new(), Value::str_text),
        ),
        "repr" => Value::str(&first().repr()),
        "int" | "float" | "abs" if matches!(first(), Value::NpScalar(_)) => {
            let Value::NpScalar(x) = first() else {
                return Ok(Value::None);
            };
            let mut args = args;
            args.positional[0] = crate::stdlib::numpy::python_number(&x);
            if name == "abs" {
                return crate::stdlib::numpy::absolute(&Value::NpScalar(x));
            }
            return call(interp, name, args);
        }
        "abs" if matches!(first(), Value::NdArray(_)) => {
            return crate::stdlib::numpy::absolute(&first());
        }
        "int" | "float" if matches!(first(), Value::NdArray(_)) => {
            let Value::NdArray(a) = &first() else {
                return Ok(Value::None);
            };
            let a = a.clone();
            if a.size() != 1 {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "only length-1 arrays can be converted to Python scalars",
                ));
            }
            let mut args = args;
            args.positional[0] = crate::stdlib::numpy::python_number(&a.scalar_at(0)?);
            return call(interp, name, args);
        }
        "int" => match (&first(), args.get(1, "base")) {
            (Value::Str(s), base) => parse_int(s, base)?,
            (_, Some(_)) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "int() can't convert non-string with explicit base",
                ));
            }
            (Value::Float(x), _) => super::int::from_f64(*x)?,
            (Value::Int(_) | Value::BigInt(_), _) => first(),
            (Value::Bool(b), _) => Value::Int(i64::from(*b)),
            // An int64 tensor's value exactly, not through f64.
            (Value::Tensor(t), _) => match one_element(t)? {
                tolab_engine::Scalar::Float(x) => super::int::from_f64(x)?,
                tolab_engine::Scalar::Int(i) => Value::Int(i),
                tolab_engine::Scalar::Bool(b) => Value::Int(i64::from(b)),
            },
            (Value::None, _) if args.positional.is_empty() => Value::Int(0),
            (other, _) => return Err(conversion_error("int", other)),
        },
        "float" => match &first() {
            Value::Int(_) | Value::Bool(_) | Value::Float(_) => Value::Float(as_f64(&first())),
            Value::BigInt(n) => Value::Float(super::int::to_f64(n)?),
            Value::Str(s) => Value::Float(s.trim().parse().map_err(|_| {
                PyException::new(
                    ExcType::ValueError,
                    format!(
                        "could not convert string to float: {}",
                        Value::Str(s.clone()).repr()
                    ),
                )
            })?),
            Value::Tensor(t) => Value::Float(one_element(t)?.as_f64()),
            Value::None if args.positional.is_empty() => Value::Float(0.0),
            other => return Err(conversion_error("float", other)),
        },
        "bool" => Value::Bool(first().truth()?),
        "chr" => match &first() {
            Value::Int(code) => Value::str(
                &u32::try_from(*code)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        PyException::new(ExcType::ValueError, "chr() arg not in range(0x110000)")
                    })?
                    .to_string(),
            ),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        other.type_name()
                    ),
                ));
            }
        },
        "ord" => match &first() {
            Value::Str(s) if s.chars().count() == 1 => {
                Value::Int(i64::from(u32::from(s.chars().next().unwrap_or_default())))
            }
            Value::Str(s) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "ord() expected a character, but string of length {} found",
                        s.chars().count()
                    ),
                ));
            }
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "ord() expected string of length 1, but {} found",
                        other.type_name()
                    ),
                ));
            }
        },
        "pow" => {
            let base = first();
            let exponent = args.get(1, "exp").cloned().unwrap_or(Value::None);
            match args.get(2, "mod") {
                None | Some(Value::None) => super::operators::binary(
                    ruff_python_ast::Operator::Pow,
                    &base,
                    &exponent,
                    false,
                )?,
                Some(modulus) => modular_pow(&base, &exponent, modulus)?,
            }
        }
        "divmod" => {
            let (a, b) = (first(), args.positional[1].clone());
            let quotient =
                super::operators::binary(ruff_python_ast::Operator::FloorDiv, &a, &b, false)?;
            let remainder =
                super::operators::binary(ruff_python_ast::Operator::Mod, &a, &b, false)?;
            Value::Tuple(Rc::from(vec![quotient, remainder]))
        }
        "hash" => Value::Int(super::hashing::hash(&first())?),
        "bin" | "hex" | "oct" => {
            let (prefix, radix) = match name {
                "bin" => ("0b", 2),
                "hex" => ("0x", 16),
                _ => ("0o", 8),
            };
            let Some(digits) = super::int::magnitude_digits(&first(), radix) else {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        first().type_name()
                    ),
                ));
            };
            let sign = if super::int::is_negative(&first()) {
                "-"
            } else {
                ""
            };
            Value::str(&format!("{sign}{prefix}{digits}"))
        }
        "abs" => match &first() {
            Value::Int(i) => i
                .checked_abs()
                .map_or_else(|| super::int::absolute(&(*i).into()), Value::Int),
            Value::BigInt(n) => super::int::absolute(n),
            Value::Bool(b) => Value::Int(i64::from(*b)),
            Value::Float(x) => Value::Float(x.abs()),
            Value::Complex(re, im) => Value::Float(re.hypot(*im)),
            Value::Tensor(t) => Value::Tensor(t.abs()?),
            other => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("bad operand type for abs(): '{}'", other.type_name()),
                ));
            }
        },
        "min" | "max" => {
            let items = if args.positional.len() == 1 {
                iterate(&first())?
            } else {
                args.positional.clone()
            };
            let op = if name == "min" {
                ruff_python_ast::CmpOp::Lt
            } else {
                ruff_python_ast::CmpOp::Gt
            };
            let mut best: Option<Value> = None;
            for item in items {
                best = Some(match best {
                    None => item,
                    Some(b) if compare(op, &item, &b)?.truthy() => item,
                    Some(b) => b,
                });
            }
            match best {
                Some(best) => best,
                None => nothing_to_compare(name, &args)?,
            }
        }
        "sum" => {
            let mut total = args.positional.get(1).cloned().unwrap_or(Value::Int(0));
            for item in iterate(&first())? {
                total =
                    super::operators::binary(ruff_python_ast::Operator::Add, &total, &item, false)?;
            }
            total
        }
        "round" if matches!(first(), Value::NpScalar(_)) && args.positional.len() > 1 => {
            let digits = super::value::as_index(&args.positional[1])?;
            let session = interp.session.clone();
            crate::stdlib::numpy::functions::round(&session, &first(), digits)?
        }
        // An int rounds exactly: itself, or to a power of ten (`round(1234, -2)` is 1200).
        "round" if matches!(first(), Value::Int(_) | Value::BigInt(_) | Value::Bool(_)) => {
            let n = super::int::as_big(&first()).unwrap_or_default();
            match args.positional.get(1) {
                None | Some(Value::None) => super::int::normalized(n),
                Some(digits) => super::int::round(&n, super::value::as_index(digits)?),
            }
        }
        "round" => {
            if !matches!(first(), Value::Float(_) | Value::NpScalar(_)) {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "type {} doesn't define __round__ method",
                        first().type_name()
                    ),
                ));
            }
            let x = as_f64(&first());
            match args.positional.get(1) {
                // Python rounds the exact binary value: 2.675 is 2.67499999…, so 2.67.
                Some(Value::Int(digits)) if (0..=17).contains(digits) => {
                    Value::Float(format!("{x:.*}", *digits as usize).parse().unwrap_or(x))
                }
                Some(Value::Int(digits)) => {
                    let scale = 10f64.powi(*digits as i32);
                    Value::Float(round_half_even(x * scale) / scale)
                }
                _ => super::int::from_f64(round_half_even(x))?,
            }
        }
        "list" => Value::list(match args.positional.first() {
            Some(v) => iterate(v)?,
            None => Vec::new(),
        }),
        "tuple" => Value::Tuple(match args.positional.first() {
            Some(v) => iterate(v)?.into(),
            None => Rc::from(Vec::new()),
        }),
        "type" if args.positional.len() == 3 => new_class(interp, &args.positional)?,
        "type" => type_of(&first()),
        "isinstance" => {
            let classes = match args.positional.get(1) {
                Some(Value::Tuple(classes)) => classes.to_vec(),
                Some(one) => vec![one.clone()],
                None => Vec::new(),
            };
            let object = first();
            let mut verdict = false;
            for class in &classes {
                verdict |= is_instance(&object, class)?;
            }
            Value::Bool(verdict)
        }
        "object" => Value::Instance(Rc::new(super::value::Instance {
            class: Rc::new(super::value::Class {
                builtin_base: Some("object"),
                ..super::value::Class::plain("object", Rc::from("builtins"))
            }),
            attributes: Default::default(),
            module: None,
            builtin: Default::default(),
        })),
        "issubclass" => {
            let classes = match args.positional.get(1) {
                Some(Value::Tuple(classes)) => classes.to_vec(),
                Some(one) => vec![one.clone()],
                None => Vec::new(),
            };
            let class = first();
            let mut verdict = false;
            for parent in &classes {
                verdict |= is_subclass(&class, parent)?;
            }
            Value::Bool(verdict)
        }
        "dict" => {
            let mut entries: Vec<(Value, Value)> = match args.positional.first() {
                None => Vec::new(),
                Some(Value::Dict(entries)) => entries.borrow().clone(),
                Some(pairs) => {
                    let mut entries = Vec::new();
                    for pair in iterate(pairs)? {
                        let [k, v] = <[Value; 2]>::try_from(iterate(&pair)?).map_err(|_| {
                            PyException::new(
                                ExcType::ValueError,
                                "dictionary update sequence element has the wrong length; 2 is required",
                            )
                        })?;
                        super::value::insert_entry(&mut entries, k, v);
                    }
                    entries
                }
            };
            // Keywords come after the positional mapping, and win over its keys.
            for (k, v) in &args.keywords {
                super::value::insert_entry(&mut entries, Value::str(k), v.clone());
            }
            Value::Dict(Rc::new(std::cell::RefCell::new(entries)))
        }
        "set" => Value::set(match args.positional.first() {
            Some(v) => iterate(v)?,
            None => Vec::new(),
        })?,
        "any" => Value::Bool(iterate(&first())?.iter().any(Value::truthy)),
        "all" => Value::Bool(iterate(&first())?.iter().all(Value::truthy)),
        "id" => Value::Int(identity(&first()) as i64),
        "callable" => Value::Bool(is_callable(&first())),
        "property" => Value::Wrapped(Rc::new(super::value::Wrapped::Property(
            first(),
            args.get(1, "fset")
                .filter(|v| !matches!(v, Value::None))
                .cloned(),
        ))),
        "staticmethod" => Value::Wrapped(Rc::new(super::value::Wrapped::StaticMethod(first()))),
        "classmethod" => Value::Wrapped(Rc::new(super::value::Wrapped::ClassMethod(first()))),
        "sorted" => {
            let mut items = iterate(&first())?;
            super::methods::sort_by_value(&mut items, |v| v, reversed(&args))?;
            Value::list(items)
        }
        other => {
            return Err(PyException::new(
                ExcType::NameError,
                format!("name '{other}' is not defined"),
            ));
        }
    })
}

/// `int(t)` / `float(t)`: the value of a one-element tensor.
fn one_element(t: &tolab_engine::Tensor) -> Result<tolab_engine::Scalar, PyException> {
    if t.numel() != 1 {
        return Err(PyException::new(
            ExcType::ValueError,
            "only one element tensors can be converted to Python scalars",
        ));
    }
    Ok(t.item()?)
}

fn conversion_error(target: &str, v: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "{target}() argument must be a string{} or a real number, not '{}'",
            if target == "int" {
                ", a bytes-like object"
            } else {
                ""
            },
            v.type_name()
        ),
    )
}

/// Python 3's `round`: halves go to the even neighbour.
fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// `reverse=True`.
fn reversed(args: &Args) -> bool {
    args.keyword("reverse").is_some_and(Value::truthy)
}

/// `callable(x)`.
/// Whether `isinstance`/`issubclass` against `classinfo` (a class or a tuple of them) asks a
/// metaclass.
fn hooked_check(name: &str, classinfo: &Value) -> bool {
    let hook = if name == "isinstance" {
        "__instancecheck__"
    } else {
        "__subclasscheck__"
    };
    match classinfo {
        Value::Tuple(classes) => classes.iter().any(|c| hooked_check(name, c)),
        Value::Class(c) => c
            .metaclass
            .as_ref()
            .is_some_and(|m| m.lookup(hook).is_some()),
        _ => false,
    }
}

pub fn is_callable(v: &Value) -> bool {
    match v {
        Value::Function(_)
        | Value::Builtin(_)
        | Value::ModuleFn(..)
        | Value::Method(..)
        | Value::BoundMethod(..)
        | Value::Class(_)
        | Value::Type(_)
        | Value::NnClass(_)
        | Value::ExcClass(_)
        | Value::NnModule(_)
        | Value::TorchFn(_)
        | Value::TorchMethod(..)
        | Value::TensorType(_)
        | Value::Typing(_)
        | Value::GradMode(_)
        | Value::SetGradEnabled { .. } => true,
        Value::Wrapped(w) => !matches!(&**w, super::value::Wrapped::Property(..)),
        Value::Instance(i) => i.module.is_some() || i.class.lookup("__call__").is_some(),
        _ => false,
    }
}

/// `type(x)`: the object's class.
pub(crate) fn type_of(v: &Value) -> Value {
    match v {
        Value::Instance(i) => Value::Class(i.class.clone()),
        Value::Class(c) if let Some(m) = &c.metaclass => Value::Class(m.clone()),
        Value::Wrapped(w) => Value::Type(match &**w {
            super::value::Wrapped::Property(..) => "property",
            super::value::Wrapped::StaticMethod(_) => "staticmethod",
            super::value::Wrapped::ClassMethod(_) => "classmethod",
            super::value::Wrapped::GradMode(..) => "function",
        }),
        Value::NnModule(m) => match crate::torch::signature::binding("torch.nn", &m.class_name()) {
            Some(binding) => Value::NnClass(binding.name()),
            None => Value::Type(match m.class_name().as_str() {
                "DistributedDataParallel" => {
                    "torch.nn.parallel.distributed.DistributedDataParallel"
                }
                "DataParallel" => "torch.nn.parallel.data_parallel.DataParallel",
                _ => "torch.nn.Module",
            }),
        },
        Value::Parameter(_) => Value::NnClass("Parameter"),
        Value::Exception(e) => Value::ExcClass(e.kind.clone()),
        Value::Tensor(_) => Value::Type("torch.Tensor"),
        Value::NdArray(_) => Value::Type("numpy.ndarray"),
        Value::NpScalar(x) => Value::NpType(x.dtype),
        Value::Device(_) => Value::Type("torch.device"),
        Value::DType(_) => Value::Type("torch.dtype"),
        Value::FInfo(_) => Value::Type("torch.finfo"),
        Value::DeviceProperties(_) => Value::Type("torch._C._CudaDeviceProperties"),
        Value::IInfo(_) => Value::Type("torch.iinfo"),
        Value::TensorType(_) => Value::Type("torch.tensortype"),
        Value::Size(_) => Value::Type("torch.Size"),
        Value::Builtin("Ellipsis") => Value::Type("ellipsis"),
        // Each node is of its own class, named after it (`<class 'AddBackward0'>`).
        Value::GradFn(g) => Value::Type(g.name()),
        Value::StructSeq(s) => Value::Type(s.name),
        other => match TYPES.iter().find(|t| **t == other.type_name()) {
            Some(name) => Value::Type(name),
            None => Value::Type(leak_free_name(other)),
        },
    }
}

/// The qualified names of the other types a cell can meet.
fn leak_free_name(v: &Value) -> &'static str {
    match v {
        Value::None => "NoneType",
        Value::Range { .. } => "range",
        Value::Function(_) => "function",
        Value::Module(_) => "module",
        Value::GradFn(_) => "torch.autograd.graph.Node",
        Value::TensorDataset(_) => "torch.utils.data.dataset.TensorDataset",
        Value::DataLoader(_) => "torch.utils.data.dataloader.DataLoader",
        Value::Generator(_) => "torch.Generator",
        Value::HookHandle(_) => "torch.utils.hooks.RemovableHandle",
        Value::Iterator(it) => it.try_borrow().map_or("iterator", |it| it.type_name()),
        Value::Coroutine(g) => g.kind().type_name(),
        _ => "object",
    }
}

/// `isinstance(object, class)`.
pub(crate) fn is_instance(object: &Value, class: &Value) -> Result<bool, PyException> {
    // A container subclass's object stays itself here (it is an instance of its class).
    let resolved = match object {
        Value::Instance(_) => std::borrow::Cow::Borrowed(object),
        other => other.resolved(),
    };
    let object = &*resolved;
    Ok(match class {
        Value::Type("object") => true,
        Value::Builtin("type") => matches!(
            object,
            Value::Class(_) | Value::Type(_) | Value::ExcClass(_) | Value::NnClass(_)
        ),
        Value::Type("int") => match object {
            Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => true,
            Value::Instance(i) => i.class.derives_from_builtin("int"),
            _ => false,
        },
        // `range` is a type in Python, a builtin in the lab.
        Value::Builtin("range") => matches!(object, Value::Range { .. }),
        // NumPy's float64 derives from Python's float.
        Value::Type("float") => match object {
            Value::Float(_) => true,
            Value::Instance(i) => i.class.derives_from_builtin("float"),
            Value::NpScalar(x) => x.dtype == crate::stdlib::numpy::dtype::NpDType::Float64,
            _ => false,
        },
        Value::Type("torch.Tensor" | crate::torch::autograd::VARIABLE) => {
            matches!(object, Value::Tensor(_))
        }
        // `torch.Size` and `torch.return_types.*` derive from `tuple`.
        Value::Type("tuple") => match object {
            Value::Tuple(_) | Value::StructSeq(_) | Value::Size(_) => true,
            Value::Instance(i) => i.class.derives_from_builtin("tuple"),
            _ => false,
        },
        Value::Type("torch.utils.data.Dataset") => match object {
            Value::TensorDataset(_) => true,
            Value::Instance(i) => i.class.derives_from_builtin("torch.utils.data.Dataset"),
            _ => false,
        },
        Value::Type(name) => match (type_of(object), object) {
            (Value::Type(t), _) => t == *name,
            (_, Value::Instance(i)) => i.class.derives_from_builtin(name),
            _ => false,
        },
        Value::Class(c) => match object {
            Value::Instance(i) => i.class.is_or_derives(c),
            _ => false,
        },
        // `isinstance(t, torch.FloatTensor)`: the dtype and device type.
        Value::TensorType(ty) => match object {
            Value::Tensor(t) => ty.holds(t),
            Value::Parameter(p) => ty.holds(&p.tensor()),
            _ => false,
        },
        // A torch class from the signature table (`torch.device`, `torch.finfo`).
        Value::TorchFn(b) if let Some(path) = b.class => {
            matches!(type_of(object), Value::Type(t) if t == path || t == b.key)
        }
        Value::NnClass("Module") => match object {
            Value::NnModule(_) => true,
            Value::Instance(i) => i.module.is_some(),
            _ => false,
        },
        Value::NnClass(name) => match object {
            Value::NnModule(m) => m.class_name() == *name,
            _ => false,
        },
        Value::ExcClass(kind) => match object {
            Value::Exception(e) => e.kind.caught_by(kind),
            Value::Instance(i) => i
                .class
                .exception
                .as_ref()
                .is_some_and(|root| root.caught_by(kind)),
            _ => false,
        },
        other => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "isinstance() arg 2 must be a type, a tuple of types, or a union, not {}",
                    other.type_name()
                ),
            ));
        }
    })
}

/// `int(text, base)`: Python's literal rules (sign, underscores between digits, a `0x`/`0o`/`0b`
/// prefix matching the base, or any prefix with base 0).
fn parse_int(text: &str, base: Option<&Value>) -> Result<Value, PyException> {
    let base = match base {
        None => 10,
        Some(Value::Int(b)) if *b == 0 || (2..=36).contains(b) => *b as u32,
        Some(Value::Int(_)) => {
            return Err(PyException::new(
                ExcType::ValueError,
                "int() base must be >= 2 and <= 36, or 0",
            ));
        }
        Some(other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                ),
            ));
        }
    };
    let invalid = || {
        PyException::new(
            ExcType::ValueError,
            format!(
                "invalid literal for int() with base {base}: {}",
                Value::str(text).repr()
            ),
        )
    };
    let trimmed = text.trim();
    let (negative, digits) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, &trimmed[1..]),
        Some(b'+') => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    let lower = digits.to_ascii_lowercase();
    let prefixed = |p: &str, b: u32| (base == b || base == 0) && lower.starts_with(p);
    let (radix, body) = if prefixed("0x", 16) {
        (16, &digits[2..])
    } else if prefixed("0o", 8) {
        (8, &digits[2..])
    } else if prefixed("0b", 2) {
        (2, &digits[2..])
    } else {
        (if base == 0 { 10 } else { base }, digits)
    };
    // After a prefix, one underscore may come first (`0x_ff`).
    let body = match body.len() < digits.len() {
        true => body.strip_prefix('_').unwrap_or(body),
        false => body,
    };
    if body.is_empty() || body.starts_with('_') || body.ends_with('_') || body.contains("__") {
        return Err(invalid());
    }
    let clean: String = body.chars().filter(|c| *c != '_').collect();
    if !clean.chars().all(|c| c.is_digit(radix)) {
        return Err(invalid());
    }
    match u64::from_str_radix(&clean, radix) {
        Ok(magnitude) if negative && magnitude <= i64::MIN.unsigned_abs() => {
            Ok(Value::Int(0i64.wrapping_sub_unsigned(magnitude)))
        }
        Ok(magnitude) if !negative && magnitude <= i64::MAX as u64 => {
            Ok(Value::Int(magnitude as i64))
        }
        _ => super::int::parse(&clean, radix, negative),
    }
}

/// `type(name, bases, namespace)`: a class made at run time (`collections.namedtuple` makes
/// its classes so). Its module is the namespace's `__module__`, else the running one's.
fn new_class(interp: &Interpreter, args: &[Value]) -> Result<Value, PyException> {
    let [Value::Str(name), Value::Tuple(bases), Value::Dict(entries)] = args else {
        return Err(PyException::new(
            ExcType::TypeError,
            "type() takes 1 or 3 arguments: type(name, bases, dict)",
        ));
    };
    let mut namespace = super::value::Names::default();
    for (key, value) in entries.borrow().iter() {
        let Value::Str(key) = key else {
            return Err(PyException::new(
                ExcType::TypeError,
                "type.__new__() argument 3 must be a dict of str keys",
            ));
        };
        namespace.insert(key.to_string(), value.clone());
    }
    let module = match namespace
        .get("__module__")
        .or(interp.lookup("__name__").ok().as_ref())
    {
        Some(Value::Str(m)) => m.clone(),
        _ => Rc::from("__main__"),
    };
    let class = super::objects::class_from_bases(name, module, bases)?;
    *class.namespace.borrow_mut() = namespace;
    Ok(Value::Class(Rc::new(class)))
}

/// `pow(base, exp, mod)` of ints.
fn modular_pow(base: &Value, exponent: &Value, modulus: &Value) -> Result<Value, PyException> {
    let big = super::int::as_big;
    let (Some(base), Some(exponent), Some(modulus)) = (big(base), big(exponent), big(modulus))
    else {
        return Err(PyException::new(
            ExcType::TypeError,
            "pow() 3rd argument not allowed unless all arguments are integers",
        ));
    };
    super::int::modular_power(&base, &exponent, &modulus)
}

/// `issubclass(class, parent)`.
pub(crate) fn is_subclass(class: &Value, parent: &Value) -> Result<bool, PyException> {
    Ok(match (class, parent) {
        (_, Value::Type("object")) => true,
        (Value::Class(c), Value::Class(p)) => c.is_or_derives(p),
        (Value::Class(c), Value::ExcClass(kind)) => c
            .exception
            .as_ref()
            .is_some_and(|root| root.caught_by(kind)),
        (Value::ExcClass(c), Value::ExcClass(p)) => c.caught_by(p),
        (Value::Class(c), Value::NnClass("Module")) => c.is_module,
        (Value::Type(c), Value::Type(p)) => c == p || (*c == "bool" && *p == "int"),
        (Value::Class(c), Value::Type(p)) => c.derives_from_builtin(p),
        (Value::NnClass(c), Value::NnClass(p)) => c == p || *p == "Module",
        (
            Value::Class(_) | Value::ExcClass(_) | Value::Type(_) | Value::NnClass(_),
            Value::Class(_) | Value::ExcClass(_) | Value::Type(_) | Value::NnClass(_),
        ) => false,
        (Value::Class(_) | Value::ExcClass(_) | Value::Type(_) | Value::NnClass(_), other) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "issubclass() arg 2 must be a class, a tuple of classes, or a union, not {}",
                    other.type_name()
                ),
            ));
        }
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                "issubclass() arg 1 must be a class",
            ));
        }
    })
}

/// `id(x)`: the object's identity (its address for shared objects, its value's for the rest).
pub(crate) fn identity(v: &Value) -> usize {
    fn at<T: ?Sized>(rc: &Rc<T>) -> usize {
        Rc::as_ptr(rc) as *const u8 as usize
    }
    match v {
        Value::List(l) => at(l),
        Value::Dict(d) => at(d),
        Value::Tuple(t) => at(t),
        Value::Str(s) => at(s),
        Value::Function(f) => at(f),
        Value::Class(c) => at(c),
        Value::Instance(i) => at(i),
        Value::Tensor(t) => t.id() as usize,
        Value::Parameter(p) => p.tensor().id() as usize,
        Value::NnModule(m) => m.id(),
        Value::Int(i) => 0x9000 + *i as usize * 32,
        Value::Bool(b) => 0x8000 + usize::from(*b) * 32,
        Value::None => 0x7000,
        other => std::ptr::from_ref(other) as usize,
    }
}

/// The learner objects with a `__repr__` of their own in `v` and the containers inside it (each
/// once, cycles and all; no deeper than `repr` goes).
fn learner_objects(v: &Value) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    found_in(v, |v| match v {
        Value::Instance(i) => Some(i.class.lookup("__repr__").is_some() && seen.insert(address(i))),
        _ => None,
    })
}

/// The modules in `v` and the containers inside it (built-in ones and learners' without a
/// `__repr__` of their own), whose reprs may show learners' modules.
fn modules_in(v: &Value) -> Vec<tolab_engine::nn::Module> {
    found_in(v, |v| match v {
        Value::NnModule(_) => Some(true),
        Value::Instance(i) if i.module.is_some() => Some(i.class.lookup("__repr__").is_none()),
        _ => None,
    })
    .into_iter()
    .filter_map(|v| match &v {
        Value::NnModule(m) => Some(m.clone()),
        Value::Instance(i) => i.module.clone(),
        _ => None,
    })
    .collect()
}

/// The tensors in `v` and the containers inside it, parameters included: what printing `v`
/// reads.
pub(crate) fn tensors_in(v: &Value) -> Vec<tolab_engine::Tensor> {
    found_in(v, |v| match v {
        Value::Tensor(_) | Value::Parameter(_) => Some(true),
        _ => None,
    })
    .into_iter()
    .filter_map(|v| match &v {
        Value::Tensor(t) => Some(t.clone()),
        Value::Parameter(p) => Some(p.tensor()),
        _ => None,
    })
    .collect()
}

/// The values in `v` and the containers inside it (each container once, cycles and all; no
/// deeper than `repr` goes) that `pick` decides on: `Some(true)` takes one, `Some(false)` passes
/// it by, and `None` looks inside it when it is a container.
fn found_in(v: &Value, mut pick: impl FnMut(&Value) -> Option<bool>) -> Vec<Value> {
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![(v.clone(), 0)];
    while let Some((v, depth)) = todo.pop() {
        if let Some(take) = pick(&v) {
            if take {
                found.push(v);
            }
            continue;
        }
        let inside: Vec<Value> = match &v {
            Value::List(items) if seen.insert(address(items)) => items.borrow().clone(),
            Value::Set(items) if seen.insert(address(items)) => items.borrow().clone(),
            Value::Tuple(items) if seen.insert(address(items)) => items.to_vec(),
            Value::Dict(entries) if seen.insert(address(entries)) => entries
                .borrow()
                .iter()
                .flat_map(|(k, v)| [k.clone(), v.clone()])
                .collect(),
            Value::StructSeq(s) => s.items(),
            _ => continue,
        };
        if depth < MAX_REPR_DEPTH {
            // Reversed onto the stack, so that they are met in order.
            todo.extend(inside.into_iter().rev().map(|item| (item, depth + 1)));
        }
    }
    found
}
