//! `torch.einsum`: the equation parsed, each operand's repeated subscripts taken as diagonals,
//! the operands aligned by permutes and unsqueezes, then contracted left to right by pairs,
//! each pair a permute–reshape–`bmm`–view. This is ATen's own recipe (`Linear.cpp`), followed
//! step by step so that the graph a learner draws (`ViewBackward0` over `PermuteBackward0` over
//! `BmmBackward0` …) and the summation order (so the rounding) are PyTorch's. Without
//! `opt_einsum` installed, as in a plain `pip install torch`, PyTorch contracts left to right
//! too.

use crate::error::{EinsumError, Error};
use crate::tensor::Tensor;

/// Subscripts 0–25 are `A`–`Z`, 26–51 `a`–`z`, as ATen numbers them: the implicit output lists
/// its subscripts in this order.
const LETTERS: usize = 26;
const LABELS: usize = 2 * LETTERS;
/// The `...` of an operand, among its subscripts.
const ELLIPSIS: usize = LABELS;

fn subscript(label: u8) -> usize {
    if label.is_ascii_uppercase() {
        usize::from(label - b'A')
    } else {
        usize::from(label - b'a') + LETTERS
    }
}

fn label(subscript: usize) -> char {
    if subscript < LETTERS {
        char::from(b'A' + subscript as u8)
    } else {
        char::from(b'a' + (subscript - LETTERS) as u8)
    }
}

/// The subscripts of each operand (with [`ELLIPSIS`] where `...` stands), from the equation's
/// left-hand side.
fn parse_operands(lhs: &[u8], num_ops: usize) -> Result<Vec<Vec<usize>>, EinsumError> {
    let mut labels = vec![Vec::new(); num_ops];
    let (mut operand, mut ellipsis) = (0, false);
    let mut i = 0;
    while i < lhs.len() {
        match lhs[i] {
            b' ' => {}
            b'.' => {
                if ellipsis {
                    return Err(EinsumError::SecondEllipsis { operand });
                }
                if !(i + 2 < lhs.len() && lhs[i + 1] == b'.' && lhs[i + 2] == b'.') {
                    return Err(EinsumError::StrayDot { operand });
                }
                i += 2;
                labels[operand].push(ELLIPSIS);
                ellipsis = true;
            }
            b',' => {
                operand += 1;
                if operand >= num_ops {
                    return Err(EinsumError::FewerOperands);
                }
                ellipsis = false;
            }
            c if c.is_ascii_alphabetic() => labels[operand].push(subscript(c)),
            _ => return Err(EinsumError::InvalidSubscript { index: i }),
        }
        i += 1;
    }
    if operand != num_ops - 1 {
        return Err(EinsumError::MoreOperands);
    }
    Ok(labels)
}

/// Where each subscript goes among the aligned dimensions: the output's first (explicit, or
/// the ellipsis then the subscripts seen once), then the ones summed over.
struct Alignment {
    /// Index of each subscript among the aligned dimensions (`None`: not in the equation).
    position: Vec<Option<usize>>,
    /// Where the ellipsis dimensions start.
    ellipsis_at: usize,
    /// How many aligned dimensions the output keeps.
    out_dims: usize,
    /// All aligned dimensions, output and summed.
    dims: usize,
}

fn align(
    equation: &[u8],
    arrow: Option<usize>,
    counts: &[usize],
    ellipsis_dims: usize,
) -> Result<Alignment, EinsumError> {
    let mut position = vec![None; LABELS];
    let (mut next, mut ellipsis_at, mut ellipsis_out) = (0, 0, false);
    match arrow {
        None => {
            next = ellipsis_dims;
            ellipsis_out = true;
            for s in (0..LABELS).filter(|&s| counts[s] == 1) {
                position[s] = Some(next);
                next += 1;
            }
        }
        Some(at) => {
            let rhs = &equation[at + 2..];
            let mut i = 0;
            while i < rhs.len() {
                match rhs[i] {
                    b' ' => {}
                    b'.' => {
                        if ellipsis_out {
                            return Err(EinsumError::SecondOutputEllipsis);
                        }
                        if !(i + 2 < rhs.len() && rhs[i + 1] == b'.' && rhs[i + 2] == b'.') {
                            return Err(EinsumError::StrayOutputDot);
                        }
                        i += 2;
                        ellipsis_at = next;
                        next += ellipsis_dims;
                        ellipsis_out = true;
                    }
                    c if c.is_ascii_alphabetic() => {
                        let s = subscript(c);
                        let label = char::from(c);
                        if position[s].is_some() {
                            return Err(EinsumError::RepeatedOutput { label });
                        }
                        if counts[s] == 0 {
                            return Err(EinsumError::UnknownOutput { label });
                        }
                        position[s] = Some(next);
                        next += 1;
                    }
                    _ => return Err(EinsumError::InvalidSubscript { index: at + 2 + i }),
                }
                i += 1;
            }
        }
    }
    let out_dims = next;
    if !ellipsis_out {
        ellipsis_at = next;
        next += ellipsis_dims;
    }
    for s in 0..LABELS {
        if counts[s] > 0 && position[s].is_none() {
            position[s] = Some(next);
            next += 1;
        }
    }
    Ok(Alignment {
        position,
        ellipsis_at,
        out_dims,
        dims: next,
    })
}

impl Tensor {
    /// `torch.einsum(equation, *operands)`, contracted left to right.
    pub fn einsum(equation: &str, operands: &[Tensor]) -> Result<Tensor, Error> {
        if operands.is_empty() {
            return Err(EinsumError::NoOperands.into());
        }
        let equation = equation.as_bytes();
        let arrow = equation.windows(2).position(|w| w == b"->");
        let labels = parse_operands(&equation[..arrow.unwrap_or(equation.len())], operands.len())?;

        let mut counts = vec![0usize; LABELS];
        let mut ellipsis_dims = 0;
        for (operand, (op, labels)) in operands.iter().zip(&labels).enumerate() {
            let has_ellipsis = labels.contains(&ELLIPSIS);
            let subscripts = labels.len() - usize::from(has_ellipsis);
            for &s in labels.iter().filter(|&&s| s != ELLIPSIS) {
                counts[s] += 1;
            }
            let fits = match has_ellipsis {
                true => subscripts <= op.dim(),
                false => subscripts == op.dim(),
            };
            if !fits {
                return Err(EinsumError::SubscriptCount {
                    subscripts,
                    dims: op.dim(),
                    operand,
                    ellipsis: has_ellipsis,
                }
                .into());
            }
            if has_ellipsis {
                ellipsis_dims = ellipsis_dims.max(op.dim() - subscripts);
            }
        }
        let aligned = align(equation, arrow, &counts, ellipsis_dims)?;

        // Check sizes, take diagonals for repeated subscripts, and permute every operand to the
        // aligned dimensions (size 1 where it lacks one). `nontrivial[d]` counts the operands in
        // which aligned dimension `d` is not 1: the contraction sums it once only one is left.
        let mut label_size = vec![1usize; LABELS];
        let mut ellipsis_sizes = vec![1usize; ellipsis_dims];
        let mut nontrivial = vec![0usize; aligned.dims];
        let mut ops = std::collections::VecDeque::new();
        for (operand, (source, labels)) in operands.iter().zip(&labels).enumerate() {
            let mut op = source.clone();
            let mut permutation: Vec<Option<usize>> = vec![None; aligned.dims];
            let mut dim = 0;
            for &s in labels {
                if s == ELLIPSIS {
                    let covered = source.dim() - (labels.len() - 1);
                    for j in ellipsis_dims - covered..ellipsis_dims {
                        let size = op.shape()[dim];
                        if size != 1 {
                            if ellipsis_sizes[j] != 1 && ellipsis_sizes[j] != size {
                                return Err(EinsumError::EllipsisBroadcast {
                                    dim,
                                    operand,
                                    size,
                                    seen: ellipsis_sizes[j],
                                }
                                .into());
                            }
                            ellipsis_sizes[j] = size;
                            nontrivial[aligned.ellipsis_at + j] += 1;
                        }
                        permutation[aligned.ellipsis_at + j] = Some(dim);
                        dim += 1;
                    }
                    continue;
                }
                let at = aligned.position[s].expect("every input subscript is aligned");
                let size = op.shape()[dim];
                match permutation[at] {
                    None => {
                        if size != 1 {
                            if label_size[s] != 1 && label_size[s] != size {
                                return Err(EinsumError::SubscriptBroadcast {
                                    label: label(s),
                                    size,
                                    operand,
                                    seen: label_size[s],
                                }
                                .into());
                            }
                            label_size[s] = size;
                            nontrivial[at] += 1;
                        }
                        permutation[at] = Some(dim);
                        dim += 1;
                    }
                    Some(previous) => {
                        let previous_size = op.shape()[previous];
                        if size != previous_size {
                            return Err(EinsumError::RepeatedSizes {
                                label: label(s),
                                operand,
                                size,
                                previous: previous_size,
                            }
                            .into());
                        }
                        op = op
                            .diagonal(0, previous as i64, dim as i64)?
                            .movedim(&[-1], &[previous as i64])?;
                    }
                }
            }
            let mut order = Vec::with_capacity(aligned.dims);
            for slot in permutation {
                let d = match slot {
                    Some(d) => d,
                    None => {
                        op = op.unsqueeze(dim as i64)?;
                        dim += 1;
                        dim - 1
                    }
                };
                order.push(d as i64);
            }
            ops.push_back(op.permute(&order)?);
        }

        // Contract the first two operands into one, at the front, until one is left. A summed
        // dimension is summed as soon as no other operand still has it.
        while ops.len() > 1 {
            let mut a = ops.pop_front().expect("two operands");
            let mut b = ops.pop_front().expect("two operands");
            let (mut both, mut only_a, mut only_b) = (Vec::new(), Vec::new(), Vec::new());
            for (dim, count) in nontrivial.iter_mut().enumerate().skip(aligned.out_dims) {
                let (in_a, in_b) = (a.shape()[dim] != 1, b.shape()[dim] != 1);
                if in_a && in_b {
                    *count -= 1;
                    if *count == 1 {
                        both.push(dim);
                        *count = 0;
                    }
                } else if *count == 1 {
                    if in_a {
                        only_a.push(dim as i64);
                        *count = 0;
                    } else if in_b {
                        only_b.push(dim as i64);
                        *count = 0;
                    }
                }
            }
            if !only_a.is_empty() {
                a = a.sum(&only_a, true)?;
            }
            if !only_b.is_empty() {
                b = b.sum(&only_b, true)?;
            }
            ops.push_front(sum_product_pair(&a, &b, &both)?);
        }

        let result = ops.pop_front().expect("one operand left");
        if aligned.dims == aligned.out_dims {
            return Ok(result);
        }
        if operands.len() > 1 {
            // The summed dimensions are all 1 by now: ATen views them away.
            let sizes: Vec<i64> = result.shape()[..aligned.out_dims]
                .iter()
                .map(|&s| s as i64)
                .collect();
            return result.view(&sizes);
        }
        let summed: Vec<i64> = (aligned.out_dims..aligned.dims).map(|d| d as i64).collect();
        result.sum(&summed, false)
    }
}

/// `(left * right).sum(sum_dims, keepdim=True)` of two aligned operands, as one `bmm`: the
/// dimensions in both and kept become the batch, the ones in one side only the rows or the
/// columns, the summed ones the inner dimension (ATen's `sumproduct_pair`).
fn sum_product_pair(left: &Tensor, right: &Tensor, sum_dims: &[usize]) -> Result<Tensor, Error> {
    if sum_dims.is_empty() {
        return left.mul(right);
    }
    let (mut left, mut right) = (left.clone(), right.clone());
    let (mut both, mut only_left, mut only_right) = (Vec::new(), Vec::new(), Vec::new());
    let (mut both_size, mut left_size, mut right_size, mut sum_size) = (1i64, 1i64, 1i64, 1i64);
    for i in 0..left.dim() {
        let (sl, sr) = (left.shape()[i] != 1, right.shape()[i] != 1);
        if sum_dims.contains(&i) {
            if sl && sr {
                sum_size *= left.shape()[i] as i64;
            } else if sl {
                left = left.sum(&[i as i64], true)?;
            } else if sr {
                right = right.sum(&[i as i64], true)?;
            }
        } else if sl && sr {
            both.push(i);
            both_size *= left.shape()[i] as i64;
        } else if sl {
            only_left.push(i);
            left_size *= left.shape()[i] as i64;
        } else {
            only_right.push(i);
            right_size *= right.shape()[i] as i64;
        }
    }
    let out_size: Vec<i64> = both
        .iter()
        .chain(&only_left)
        .map(|&d| left.shape()[d] as i64)
        .chain(sum_dims.iter().map(|_| 1))
        .chain(only_right.iter().map(|&d| right.shape()[d] as i64))
        .collect();
    let as_dims = |groups: &[&[usize]]| -> Vec<i64> {
        groups
            .iter()
            .flat_map(|g| g.iter().map(|&d| d as i64))
            .collect()
    };
    let left_order = as_dims(&[&both, &only_left, sum_dims, &only_right]);
    let right_order = as_dims(&[&both, sum_dims, &only_right, &only_left]);
    let mut out_order = vec![0i64; out_size.len()];
    for (i, &d) in left_order.iter().enumerate() {
        out_order[d as usize] = i as i64;
    }
    let left = left
        .permute(&left_order)?
        .reshape(&[both_size, left_size, sum_size])?;
    let right = right
        .permute(&right_order)?
        .reshape(&[both_size, sum_size, right_size])?;
    left.bmm(&right)?.view(&out_size)?.permute(&out_order)
}
