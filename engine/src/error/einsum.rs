//! The errors of `torch.einsum`'s equation and operands, in ATen's words
//! (`aten/src/ATen/native/Linear.cpp`, `einsum`).

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EinsumError {
    #[error("einsum(): must provide at least one operand")]
    NoOperands,
    #[error("einsum(): found '.' for operand {operand} for which an ellipsis was already found")]
    SecondEllipsis { operand: usize },
    #[error("einsum(): found '.' for operand {operand} that is not part of any ellipsis")]
    StrayDot { operand: usize },
    #[error("einsum(): fewer operands were provided than specified in the equation")]
    FewerOperands,
    #[error("einsum(): more operands were provided than specified in the equation")]
    MoreOperands,
    /// `index` counts bytes from the start of the equation, spaces and `->` included.
    #[error(
        "einsum(): invalid subscript given at index {index} in the equation string, subscripts must be in [a-zA-Z]"
    )]
    InvalidSubscript { index: usize },
    #[error(
        "einsum(): the number of subscripts in the equation ({subscripts}) {} the number of dimensions ({dims}) for operand {operand}{}",
        if *ellipsis { "is more than" } else { "does not match" },
        if *ellipsis { "" } else { " and no ellipsis was given" }
    )]
    SubscriptCount {
        subscripts: usize,
        dims: usize,
        operand: usize,
        ellipsis: bool,
    },
    #[error("einsum(): found '.' for output but an ellipsis (...) was already found")]
    SecondOutputEllipsis,
    #[error("einsum(): found '.' for output that is not part of any ellipsis (...)")]
    StrayOutputDot,
    #[error("einsum(): output subscript {label} appears more than once in the output")]
    RepeatedOutput { label: char },
    #[error(
        "einsum(): output subscript {label} does not appear in the equation for any input operand"
    )]
    UnknownOutput { label: char },
    // ATen's text has no space before "has size".
    #[error(
        "einsum(): dimension {dim} covered by ellipsis in operand {operand}has size {size} which does not broadcast with previously seen ellipsis with size {seen} for the respective dimension"
    )]
    EllipsisBroadcast {
        dim: usize,
        operand: usize,
        size: usize,
        seen: usize,
    },
    #[error(
        "einsum(): subscript {label} has size {size} for operand {operand} which does not broadcast with previously seen size {seen}"
    )]
    SubscriptBroadcast {
        label: char,
        size: usize,
        operand: usize,
        seen: usize,
    },
    #[error(
        "einsum(): subscript {label} is repeated for operand {operand} but the sizes don't match, {size} != {previous}"
    )]
    RepeatedSizes {
        label: char,
        operand: usize,
        size: usize,
        previous: usize,
    },
}
