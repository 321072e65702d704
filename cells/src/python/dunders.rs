//! Operators on learners' objects: `a + b` calls `__add__` (or `b.__radd__`), comparisons call
//! `__eq__`, `__lt__`, … (reflected as Python reflects them), `x in obj` calls `__contains__`,
//! `obj[k] = v` and `del obj[k]` call `__setitem__` and `__delitem__`, truth calls `__bool__` or
//! `__len__`, unary operators call `__neg__`, `__pos__`, `__invert__`, and sorting, `min` and `max` order objects by their `__lt__`. Values without
//! learner objects never come here: the operators module answers them synchronously. The same
//! names called explicitly on a tensor (`t.__add__(1)`, `t.__rlshift__(2)`, `t.__iand__(m)`)
//! are its operators.

use ruff_python_ast::{CmpOp, Operator, UnaryOp};

use super::args::Flow;
use super::interpreter::Interpreter;
use super::operators;
use super::value::Value;

/// The method `left op right` calls, and the one `right` answers with when `left` has none.
fn binary_methods(op: Operator) -> (&'static str, &'static str) {
    match op {
        Operator::Add => ("__add__", "__radd__"),
        Operator::Sub => ("__sub__", "__rsub__"),
        Operator::Mult => ("__mul__", "__rmul__"),
        Operator::MatMult => ("__matmul__", "__rmatmul__"),
        Operator::Div => ("__truediv__", "__rtruediv__"),
        Operator::Mod => ("__mod__", "__rmod__"),
        Operator::Pow => ("__pow__", "__rpow__"),
        Operator::LShift => ("__lshift__", "__rlshift__"),
        Operator::RShift => ("__rshift__", "__rrshift__"),
        Operator::BitOr => ("__or__", "__ror__"),
        Operator::BitXor => ("__xor__", "__rxor__"),
        Operator::BitAnd => ("__and__", "__rand__"),
        Operator::FloorDiv => ("__floordiv__", "__rfloordiv__"),
    }
}

/// The in-place method of `a op= b` (`__iadd__`).
fn in_place_method(op: Operator) -> &'static str {
    match op {
        Operator::Add => "__iadd__",
        Operator::Sub => "__isub__",
        Operator::Mult => "__imul__",
        Operator::MatMult => "__imatmul__",
        Operator::Div => "__itruediv__",
        Operator::Mod => "__imod__",
        Operator::Pow => "__ipow__",
        Operator::LShift => "__ilshift__",
        Operator::RShift => "__irshift__",
        Operator::BitOr => "__ior__",
        Operator::BitXor => "__ixor__",
        Operator::BitAnd => "__iand__",
        Operator::FloorDiv => "__ifloordiv__",
    }
}

/// The method a comparison calls on its left operand, and the reflected one on its right.
fn comparison_methods(op: CmpOp) -> Option<(&'static str, &'static str)> {
    Some(match op {
        CmpOp::Eq => ("__eq__", "__eq__"),
        CmpOp::NotEq => ("__ne__", "__ne__"),
        CmpOp::Lt => ("__lt__", "__gt__"),
        CmpOp::LtE => ("__le__", "__ge__"),
        CmpOp::Gt => ("__gt__", "__lt__"),
        CmpOp::GtE => ("__ge__", "__le__"),
        CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => return None,
    })
}

/// Every binary operator, for looking one up by its method's name.
const OPERATORS: [Operator; 13] = [
    Operator::Add,
    Operator::Sub,
    Operator::Mult,
    Operator::MatMult,
    Operator::Div,
    Operator::Mod,
    Operator::Pow,
    Operator::LShift,
    Operator::RShift,
    Operator::BitOr,
    Operator::BitXor,
    Operator::BitAnd,
    Operator::FloorDiv,
];

/// An operator a method name stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum OperatorMethod {
    /// `__add__`: `self op other`.
    Forward(Operator),
    /// `__radd__`: `other op self`.
    Reflected(Operator),
    /// `__iadd__`: `self op= other`.
    InPlace(Operator),
    Compare(CmpOp),
    Unary(UnaryOp),
}

/// The operator `name` is the method of (`__lshift__`, `__rmod__`, `__ixor__`, `__lt__`, `__neg__`).
pub(crate) fn operator_method(name: &str) -> Option<OperatorMethod> {
    for op in OPERATORS {
        let (forward, reflected) = binary_methods(op);
        if name == forward {
            return Some(OperatorMethod::Forward(op));
        }
        if name == reflected {
            return Some(OperatorMethod::Reflected(op));
        }
        if name == in_place_method(op) {
            return Some(OperatorMethod::InPlace(op));
        }
    }
    let compare = [
        CmpOp::Eq,
        CmpOp::NotEq,
        CmpOp::Lt,
        CmpOp::LtE,
        CmpOp::Gt,
        CmpOp::GtE,
    ]
    .into_iter()
    .find(|&op| comparison_methods(op).is_some_and(|(method, _)| method == name));
    if let Some(op) = compare {
        return Some(OperatorMethod::Compare(op));
    }
    Some(OperatorMethod::Unary(match name {
        "__neg__" => UnaryOp::USub,
        "__pos__" => UnaryOp::UAdd,
        "__invert__" => UnaryOp::Invert,
        _ => return None,
    }))
}

/// `owner.<method>(other)` for a value the operators module answers (a tensor): the operator
/// itself, operands in the method's order.
pub(crate) fn call_operator_method(
    owner: &Value,
    method: OperatorMethod,
    args: &[Value],
) -> Result<Value, super::exception::PyException> {
    let other = || {
        args.first().cloned().ok_or_else(|| {
            super::exception::PyException::new(
                super::exception::ExcType::TypeError,
                "expected 1 argument, got 0",
            )
        })
    };
    match method {
        OperatorMethod::Forward(op) => operators::binary(op, owner, &other()?, false),
        OperatorMethod::Reflected(op) => operators::binary(op, &other()?, owner, false),
        OperatorMethod::InPlace(op) => operators::binary(op, owner, &other()?, true),
        OperatorMethod::Compare(op) => operators::compare(op, owner, &other()?),
        OperatorMethod::Unary(op) => operators::unary(op, owner),
    }
}

/// Whether `v` is a learner's object defining `method`.
fn defines(v: &Value, method: &str) -> bool {
    v.dunder_class().is_some_and(|c| c.lookup(method).is_some())
}

impl Interpreter {
    /// `left op right` answered by a learner's method, if either operand has one.
    pub(crate) async fn binary_dunder(
        &mut self,
        op: Operator,
        left: &Value,
        right: &Value,
        in_place: bool,
    ) -> Result<Option<Value>, Flow> {
        if in_place && defines(left, in_place_method(op)) {
            let method = in_place_method(op);
            return Ok(Some(
                self.call_dunder(left, method, vec![right.clone()]).await?,
            ));
        }
        self.forward_or_reflected(binary_methods(op), left, right)
            .await
    }

    /// `left.method(right)` where `left` has it, else `right.reflected(left)`.
    async fn forward_or_reflected(
        &mut self,
        (method, reflected): (&str, &str),
        left: &Value,
        right: &Value,
    ) -> Result<Option<Value>, Flow> {
        // A method returning `NotImplemented` lets the other operand answer.
        let answered = |v: &Value| !matches!(v, Value::Builtin("NotImplemented"));
        if defines(left, method) {
            let answer = self.call_dunder(left, method, vec![right.clone()]).await?;
            if answered(&answer) {
                return Ok(Some(answer));
            }
        }
        if defines(right, reflected) {
            let answer = self
                .call_dunder(right, reflected, vec![left.clone()])
                .await?;
            if answered(&answer) {
                return Ok(Some(answer));
            }
        }
        Ok(None)
    }

    /// `-x`, `+x`, `~x` and `not x` on a learner's object.
    pub(crate) async fn unary_dunder(
        &mut self,
        op: UnaryOp,
        operand: &Value,
    ) -> Result<Value, Flow> {
        let method = match op {
            UnaryOp::Not => return Ok(Value::Bool(!self.truth(operand).await?)),
            UnaryOp::USub => "__neg__",
            UnaryOp::UAdd => "__pos__",
            UnaryOp::Invert => "__invert__",
        };
        if defines(operand, method) {
            return self.call_dunder(operand, method, Vec::new()).await;
        }
        Ok(operators::unary(op, operand)?)
    }

    /// `left op right` for a comparison a learner's method answers: `__eq__` and the ordering
    /// methods (reflected on the right operand), `__ne__` as `not __eq__` where only that is
    /// defined, and `in` through the container's `__contains__`.
    pub(crate) async fn compare_dunder(
        &mut self,
        op: CmpOp,
        left: &Value,
        right: &Value,
    ) -> Result<Option<Value>, Flow> {
        if let CmpOp::In | CmpOp::NotIn = op {
            if !defines(right, "__contains__") {
                // `obj in seen`: found by `__hash__` and `__eq__` (in a list, by `__eq__`).
                let found = match &*right.resolved() {
                    Value::Dict(_) | Value::Set(_) => {
                        let held = Box::pin(self.held_key(right, left.clone())).await?;
                        operators::compare(CmpOp::In, &held, right)?.truthy()
                    }
                    Value::List(items) if defines(left, "__eq__") => {
                        let items = items.borrow().clone();
                        Box::pin(self.position_of(&items, left)).await?.is_some()
                    }
                    Value::Tuple(items) if defines(left, "__eq__") => {
                        Box::pin(self.position_of(&items.clone(), left))
                            .await?
                            .is_some()
                    }
                    _ => return Ok(None),
                };
                return Ok(Some(Value::Bool(found == (op == CmpOp::In))));
            }
            let found = self
                .call_dunder(right, "__contains__", vec![left.clone()])
                .await?;
            let found = self.truth(&found).await?;
            return Ok(Some(Value::Bool(found == (op == CmpOp::In))));
        }
        let Some(methods) = comparison_methods(op) else {
            return Ok(None);
        };
        if let Some(answer) = self.forward_or_reflected(methods, left, right).await? {
            return Ok(Some(answer));
        }
        if op == CmpOp::NotEq && (defines(left, "__eq__") || defines(right, "__eq__")) {
            let equal = Box::pin(self.compare_dunder(CmpOp::Eq, left, right)).await?;
            if let Some(equal) = equal {
                return Ok(Some(Value::Bool(!self.truth(&equal).await?)));
            }
        }
        Ok(None)
    }

    /// `left < right`, by a learner's `__lt__` (or `right.__gt__`) where there is one.
    async fn less_than(&mut self, left: &Value, right: &Value) -> Result<bool, Flow> {
        let answer = match self.compare_dunder(CmpOp::Lt, left, right).await? {
            Some(answer) => answer,
            None => operators::compare(CmpOp::Lt, left, right)?,
        };
        self.truth(&answer).await
    }

    /// Sorts `(key, item)` pairs by key, stably (a merge sort: each comparison may run a
    /// learner's `__lt__`), as `sorted` and `list.sort` do for learners' objects.
    pub(crate) async fn sort_by_learned_order(
        &mut self,
        pairs: Vec<(Value, Value)>,
        reverse: bool,
    ) -> Result<Vec<(Value, Value)>, Flow> {
        let mut runs: Vec<Vec<(Value, Value)>> = pairs.into_iter().map(|p| vec![p]).collect();
        while runs.len() > 1 {
            let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
            let mut pending = runs.into_iter();
            while let Some(left) = pending.next() {
                let Some(right) = pending.next() else {
                    merged.push(left);
                    break;
                };
                let mut out = Vec::with_capacity(left.len() + right.len());
                let (mut left, mut right) =
                    (left.into_iter().peekable(), right.into_iter().peekable());
                while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
                    // Stable either way: a later item goes first only when strictly before.
                    let right_first = if reverse {
                        self.less_than(&l.0, &r.0).await?
                    } else {
                        self.less_than(&r.0, &l.0).await?
                    };
                    let next = if right_first {
                        right.next()
                    } else {
                        left.next()
                    };
                    out.extend(next);
                }
                out.extend(left);
                out.extend(right);
                merged.push(out);
            }
            runs = merged;
        }
        Ok(runs.pop().unwrap_or_default())
    }
}

impl Interpreter {
    /// `a == b` where learners' objects sit inside tuples, lists or dicts: each pair of items
    /// compares as `==` would (their `__eq__`), not by identity.
    pub(crate) async fn deep_equal(&mut self, a: &Value, b: &Value) -> Result<bool, Flow> {
        if let (Value::Instance(_), _) | (_, Value::Instance(_)) = (a, b) {
            let answer = match self.compare_dunder(CmpOp::Eq, a, b).await? {
                Some(answer) => answer,
                None => operators::compare(CmpOp::Eq, a, b)?,
            };
            return self.truth(&answer).await;
        }
        let pairs: Vec<(Value, Value)> = match (a, b) {
            (Value::Tuple(x), Value::Tuple(y)) if x.len() == y.len() => {
                x.iter().cloned().zip(y.iter().cloned()).collect()
            }
            (Value::List(x), Value::List(y)) if x.borrow().len() == y.borrow().len() => x
                .borrow()
                .iter()
                .cloned()
                .zip(y.borrow().iter().cloned())
                .collect(),
            (Value::Tuple(_), Value::Tuple(_)) | (Value::List(_), Value::List(_)) => {
                return Ok(false);
            }
            _ => return Ok(super::value::try_equal(a, b)?),
        };
        for (x, y) in pairs {
            if !Box::pin(self.deep_equal(&x, &y)).await? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Whether a tuple or list holds learners' objects, so that `==` on it needs their `__eq__`.
/// Looked for a few levels deep only: a list may hold itself, and deeper objects are rare.
pub(crate) fn holds_learner_objects(v: &Value) -> bool {
    fn within(v: &Value, depth: usize) -> bool {
        match v {
            Value::Instance(_) => true,
            _ if depth == 0 => false,
            Value::Tuple(items) => items.iter().any(|i| within(i, depth - 1)),
            Value::List(items) => items.borrow().iter().any(|i| within(i, depth - 1)),
            _ => false,
        }
    }
    within(v, 4)
}

/// Whether an operation on these values may need a learner's methods.
pub(crate) fn has_learner_objects<'a>(values: impl IntoIterator<Item = &'a Value>) -> bool {
    values.into_iter().any(|v| matches!(v, Value::Instance(_)))
}
