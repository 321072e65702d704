//! Python's iteration protocol: `for` loops, comprehensions, unpacking and the consuming builtins
//! (`list`, `sum`, `sorted`, …) draw items one at a time from an [`Iter`], so `range(10**12)`,
//! a DataLoader epoch or a learner's `__iter__`/`__next__` class never have to fit in memory, and
//! each item drawn counts against the cell's step budget.

use std::cell::RefCell;
use std::rc::Rc;

use tolab_engine::Tensor;

use super::args::{Args, Eval, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::operators;
use super::value::Value;

/// An iteration in progress.
pub enum Iter {
    /// Items already at hand (a list's snapshot, a dict's keys, …).
    Items(std::vec::IntoIter<Value>),
    Range {
        next: i64,
        stop: i64,
        step: i64,
    },
    /// A tensor's rows, `t[0]`, `t[1]`, …
    Rows {
        tensor: Tensor,
        next: usize,
    },
    Enumerate {
        inner: Box<Iter>,
        count: i64,
    },
    /// `zip(...)`; `strict=True` makes iterables of unequal lengths an error.
    Zip {
        inners: Vec<Iter>,
        strict: bool,
    },
    Map {
        function: Value,
        inner: Vec<Iter>,
    },
    Filter {
        function: Value,
        inner: Box<Iter>,
    },
    /// An iterator object (`iter(x)`, `enumerate(x)`, …): advancing it here advances it for
    /// every name that holds it.
    Shared(Rc<RefCell<Iter>>),
    /// A learner's object with `__next__`.
    User(Value),
    /// One epoch of a DataLoader.
    Loader(crate::torch::data::Epoch),
    /// A generator (a function with `yield`, a generator expression).
    Generator(Rc<super::generator::Generator>),
    /// An `async for`'s iterator (an async generator, an object with `__anext__`): each item
    /// is awaited.
    Async(Value),
}

impl Iter {
    fn empty() -> Iter {
        Iter::Items(Vec::new().into_iter())
    }

    /// `type(it).__name__`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Iter::Items(_) => "list_iterator",
            Iter::Range { .. } => "range_iterator",
            Iter::Rows { .. } => "iterator",
            Iter::Enumerate { .. } => "enumerate",
            Iter::Zip { .. } => "zip",
            Iter::Map { .. } => "map",
            Iter::Filter { .. } => "filter",
            Iter::Shared(shared) => shared.try_borrow().map_or("iterator", |i| i.type_name()),
            Iter::User(_) => "iterator",
            Iter::Loader(_) => "_SingleProcessDataLoaderIter",
            Iter::Generator(_) => "generator",
            Iter::Async(_) => "async_iterator",
        }
    }
}

impl Interpreter {
    /// `iter(value)`.
    pub(crate) fn iter_of<'a>(&'a mut self, value: &'a Value) -> Eval<'a, Iter> {
        Box::pin(async move {
            // A container subclass iterates as its container unless its class says otherwise.
            let resolved = match value {
                Value::Instance(i) if i.class.lookup("__iter__").is_some() => {
                    std::borrow::Cow::Borrowed(value)
                }
                other => other.resolved(),
            };
            Ok(match &*resolved {
                Value::Range { start, stop, step } => Iter::Range {
                    next: *start,
                    stop: *stop,
                    step: *step,
                },
                Value::Tensor(t) => {
                    if t.dim() == 0 {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            "iteration over a 0-d tensor",
                        )
                        .into());
                    }
                    Iter::Rows {
                        tensor: t.clone(),
                        next: 0,
                    }
                }
                Value::Iterator(shared) => Iter::Shared(shared.clone()),
                Value::NnModule(m) if crate::torch::nn::module::holds_module_list(m) => {
                    let objects: Vec<Value> =
                        m.children().iter().map(|c| self.object_of(c)).collect();
                    Iter::Items(objects.into_iter())
                }
                Value::DataLoader(loader) => Iter::Loader(self.epoch(loader).await?),
                Value::Instance(_) | Value::Class(_) => {
                    let Some(iter) = resolved.dunder_class().and_then(|c| c.lookup("__iter__"))
                    else {
                        return Err(not_iterable(value).into());
                    };
                    let iter = self.bind(value, iter);
                    let it = self.call(&iter, Args::default()).await?;
                    match &it {
                        Value::Instance(i) if i.class.lookup("__next__").is_some() => {
                            Iter::User(it)
                        }
                        Value::Instance(_) => {
                            return Err(PyException::new(
                                ExcType::TypeError,
                                format!(
                                    "iter() returned non-iterator of type '{}'",
                                    it.type_name()
                                ),
                            )
                            .into());
                        }
                        other => Box::pin(self.iter_of(other)).await?,
                    }
                }
                other => Iter::Items(operators::iterate(other)?.into_iter()),
            })
        })
    }

    /// The next item, or `None` when the iteration is over.
    pub(crate) async fn next_of(&mut self, it: &mut Iter) -> Result<Option<Value>, Flow> {
        // A list's items and a range's ints, most loops' iterables, come without boxing a future.
        if let Some(item) = plain_next(it) {
            self.charge_step()?;
            return Ok(item);
        }
        self.next_boxed(it).await
    }

    fn next_boxed<'a>(&'a mut self, it: &'a mut Iter) -> Eval<'a, Option<Value>> {
        Box::pin(async move {
            self.charge_step()?;
            Ok(match it {
                Iter::Items(_) | Iter::Range { .. } => plain_next(it).flatten(),
                Iter::Rows { tensor, next } => {
                    if *next >= tensor.shape()[0] {
                        None
                    } else {
                        *next += 1;
                        Some(Value::Tensor(tensor.select(0, *next as i64 - 1)?))
                    }
                }
                Iter::Enumerate { inner, count } => match self.next_of(inner).await? {
                    Some(v) => {
                        *count += 1;
                        Some(Value::Tuple(Rc::from(vec![Value::Int(*count - 1), v])))
                    }
                    None => None,
                },
                Iter::Zip { inners, strict } => {
                    let mut row = Vec::with_capacity(inners.len());
                    for (i, inner) in inners.iter_mut().enumerate() {
                        match self.next_of(inner).await? {
                            Some(v) => row.push(v),
                            None if *strict && i > 0 => return Err(zip_shorter(i).into()),
                            None if *strict => {
                                // The first ran out: every other must have run out too.
                                for (j, other) in inners.iter_mut().enumerate().skip(1) {
                                    if self.next_of(other).await?.is_some() {
                                        return Err(zip_longer(j).into());
                                    }
                                }
                                return Ok(None);
                            }
                            None => return Ok(None),
                        }
                    }
                    (!row.is_empty()).then(|| Value::Tuple(row.into()))
                }
                Iter::Map { function, inner } => {
                    let mut arguments = Vec::with_capacity(inner.len());
                    for inner in inner.iter_mut() {
                        match self.next_of(inner).await? {
                            Some(v) => arguments.push(v),
                            None => return Ok(None),
                        }
                    }
                    let function = function.clone();
                    Some(self.call(&function, Args::positional(arguments)).await?)
                }
                Iter::Filter { function, inner } => loop {
                    let Some(v) = self.next_of(inner).await? else {
                        break None;
                    };
                    let keep = match &*function {
                        Value::None => v.truthy(),
                        f => {
                            let f = f.clone();
                            self.call(&f, Args::positional(vec![v.clone()]))
                                .await?
                                .truthy()
                        }
                    };
                    if keep {
                        break Some(v);
                    }
                },
                Iter::Shared(shared) => {
                    // Taken out while it advances: learner code run by `__next__` or `map` may
                    // touch the same iterator.
                    let mut inner = shared.replace(Iter::empty());
                    let item = self.next_of(&mut inner).await;
                    shared.replace(inner);
                    item?
                }
                Iter::User(object) => {
                    let next = match object {
                        Value::Instance(i) => i.class.lookup("__next__"),
                        _ => None,
                    };
                    let Some(next) = next else {
                        return Ok(None);
                    };
                    let next = self.bind(object, next);
                    match self.call(&next, Args::default()).await {
                        Ok(v) => Some(v),
                        Err(Flow::Error(e)) if e.kind == ExcType::StopIteration => None,
                        Err(other) => return Err(other),
                    }
                }
                Iter::Loader(epoch) => self.next_batch(epoch).await?,
                Iter::Async(iterator) => {
                    let iterator = iterator.clone();
                    Box::pin(self.async_next(&iterator)).await?
                }
                Iter::Generator(generator) => {
                    let generator = generator.clone();
                    let resume = super::generator::Resume::Send(Value::None);
                    match self.resume(&generator, resume).await? {
                        super::generator::Step::Yielded(v) => Some(v),
                        super::generator::Step::Returned(_) => None,
                    }
                }
            })
        })
    }

    /// Every item of an iterable, for the builtins that consume one.
    pub(crate) async fn collect(&mut self, value: &Value) -> Result<Vec<Value>, Flow> {
        match value {
            Value::List(items) => return Ok(items.borrow().clone()),
            // Known lengths are checked before anything is made.
            Value::Range { .. } | Value::Tuple(_) | Value::Str(_) => {
                return Ok(operators::iterate(value)?);
            }
            _ => {}
        }
        let mut it = self.iter_of(value).await?;
        let mut items = Vec::new();
        while let Some(item) = self.next_of(&mut it).await? {
            items.push(item);
        }
        Ok(items)
    }

    /// `iter`, `next`, `enumerate`, `zip`, `map`, `filter`: the builtins that make or advance
    /// iterators.
    pub(crate) async fn iterator_builtin(&mut self, name: &str, args: Args) -> Result<Value, Flow> {
        let shared = |it: Iter| Value::Iterator(Rc::new(RefCell::new(it)));
        let mut positional = args.positional.iter();
        let first = positional.next().cloned().unwrap_or(Value::None);
        Ok(match name {
            "iter" => match first {
                Value::Iterator(_) => first,
                other => shared(self.iter_of(&other).await?),
            },
            "next" => {
                let generator = match &first {
                    Value::Iterator(shared) => match &*shared.borrow() {
                        Iter::Generator(generator) => Some(generator.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(generator) = generator {
                    let resume = super::generator::Resume::Send(Value::None);
                    return match (
                        self.resume(&generator, resume).await?,
                        args.positional.get(1),
                    ) {
                        (super::generator::Step::Yielded(v), _) => Ok(v),
                        (super::generator::Step::Returned(_), Some(default)) => Ok(default.clone()),
                        (super::generator::Step::Returned(v), None) => {
                            Err(super::generator::stop_iteration(v).into())
                        }
                    };
                }
                let mut it = match &first {
                    Value::Iterator(shared) => Iter::Shared(shared.clone()),
                    Value::Instance(i) if i.class.lookup("__next__").is_some() => {
                        Iter::User(first.clone())
                    }
                    other => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("'{}' object is not an iterator", other.type_name()),
                        )
                        .into());
                    }
                };
                match (self.next_of(&mut it).await?, args.positional.get(1)) {
                    (Some(v), _) => v,
                    (None, Some(default)) => default.clone(),
                    (None, None) => {
                        return Err(PyException::new(ExcType::StopIteration, "").into());
                    }
                }
            }
            "reversed" => {
                let first = match &first {
                    Value::Instance(i) if i.class.lookup("__reversed__").is_some() => {
                        return self.call_dunder(&first, "__reversed__", Vec::new()).await;
                    }
                    other => other.resolved().into_owned(),
                };
                let items = match &first {
                    Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Range { .. } => {
                        operators::iterate(&first)?
                    }
                    Value::Dict(entries) => {
                        entries.borrow().iter().map(|(k, _)| k.clone()).collect()
                    }
                    other => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("'{}' object is not reversible", other.type_name()),
                        )
                        .into());
                    }
                };
                shared(Iter::Items(
                    items.into_iter().rev().collect::<Vec<_>>().into_iter(),
                ))
            }
            "enumerate" => {
                let count = match args.get(1, "start") {
                    Some(start) => super::value::as_index(start)?,
                    None => 0,
                };
                shared(Iter::Enumerate {
                    inner: Box::new(self.iter_of(&first).await?),
                    count,
                })
            }
            "zip" => {
                let mut inners = Vec::new();
                for v in &args.positional {
                    inners.push(self.iter_of(v).await?);
                }
                let strict = match args.keyword("strict") {
                    Some(strict) => self.truth(strict).await?,
                    None => false,
                };
                shared(Iter::Zip { inners, strict })
            }
            "map" => {
                let mut inner = Vec::new();
                for v in positional {
                    inner.push(self.iter_of(v).await?);
                }
                if inner.is_empty() {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        "map() must have at least two arguments.",
                    )
                    .into());
                }
                shared(Iter::Map {
                    function: first,
                    inner,
                })
            }
            "filter" => {
                let iterable = positional.next().cloned().unwrap_or(Value::None);
                shared(Iter::Filter {
                    function: first,
                    inner: Box::new(self.iter_of(&iterable).await?),
                })
            }
            other => {
                return Err(PyException::new(
                    ExcType::NameError,
                    format!("name '{other}' is not defined"),
                )
                .into());
            }
        })
    }
}

pub fn not_iterable(v: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!("'{}' object is not iterable", v.type_name()),
    )
}

/// The next item of a list's or a range's iterator (`Some(None)` when it is done); `None` for
/// the iterators that may run code.
fn plain_next(it: &mut Iter) -> Option<Option<Value>> {
    match it {
        Iter::Items(items) => Some(items.next()),
        Iter::Range { next, stop, step } => {
            let more = if *step > 0 { next < stop } else { next > stop };
            Some(more.then(|| {
                let v = *next;
                *next = next.saturating_add(*step);
                Value::Int(v)
            }))
        }
        _ => None,
    }
}

/// `zip(strict=True)`'s error when argument `i` (0-based) ran out before the ones before it.
fn zip_shorter(i: usize) -> PyException {
    zip_lengths(i, "shorter")
}

/// The error when argument `i` (0-based) has items left after the first ran out.
fn zip_longer(i: usize) -> PyException {
    zip_lengths(i, "longer")
}

fn zip_lengths(i: usize, how: &str) -> PyException {
    let before = match i {
        1 => "argument 1".to_owned(),
        _ => format!("arguments 1-{i}"),
    };
    PyException::new(
        ExcType::ValueError,
        format!("zip() argument {} is {how} than {before}", i + 1),
    )
}
