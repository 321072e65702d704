//! `hash()` as CPython 3.11 computes it for numbers and tuples, and the order CPython's sets
//! iterate in, which follows from those hashes.
//!
//! A set keeps its items in insertion order; where every item's hash is CPython's own (ints,
//! floats, bools and tuples of them; strings are salted per process in CPython, so nothing can
//! rely on their order), [`set_order`] replays the insertions into a table shaped as CPython's
//! `setobject.c` shapes it (8 slots to start, a resize when 3/5 full, nine linear probes, then
//! perturbed probing) and reads it slot by slot.

use super::exception::{ExcType, PyException};
use super::value::Value;

/// CPython's `_PyHASH_MODULUS`, the Mersenne prime 2**61 - 1.
const MODULUS: u64 = (1 << 61) - 1;

/// `hash(x)`: CPython's for numbers and tuples of them; a stable one for strings (CPython
/// salts those per process, so no program can rely on them) and for other objects.
pub fn hash(v: &Value) -> Result<i64, PyException> {
    // An int, float or str subclass's object hashes as its value.
    if let Value::Instance(_) = v
        && let value @ (Value::Int(_) | Value::Float(_) | Value::Str(_)) = &*v.resolved()
    {
        return hash(value);
    }
    if let Some(h) = cpython_hash(v) {
        return Ok(h);
    }
    Ok(match v {
        // A str and the bytes of its ASCII text hash alike, as in CPython.
        Value::Str(_) | Value::Bytes(_) => {
            let bytes = match v {
                Value::Str(s) => s.as_bytes(),
                Value::Bytes(b) => b,
                _ => &[],
            };
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for &b in bytes {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            (h >> 1) as i64
        }
        // A tuple holding a string or an object: CPython's combination of the items' hashes.
        Value::Tuple(items) => {
            let lanes = items.iter().map(hash).collect::<Result<Vec<_>, _>>()?;
            tuple_hash(&lanes)
        }
        Value::List(_) | Value::Dict(_) | Value::Set(_) => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("unhashable type: '{}'", v.type_name()),
            ));
        }
        other => super::builtins::identity(other) as i64 >> 4,
    })
}

/// The hash CPython gives `v` on every run, when it has one (numbers, tuples of them).
fn cpython_hash(v: &Value) -> Option<i64> {
    Some(match v {
        Value::Int(i) => int_hash(*i),
        Value::Bool(b) => i64::from(*b),
        Value::BigInt(n) => super::int::hash(n),
        Value::Float(x) => float_hash(*x)?,
        // CPython's: the real part's hash plus 1000003 (`sys.hash_info.imag`) times the
        // imaginary part's, in wrapping arithmetic; -1 is kept for errors.
        Value::Complex(re, im) => {
            match float_hash(*re)?.wrapping_add(float_hash(*im)?.wrapping_mul(1_000_003)) {
                -1 => -2,
                h => h,
            }
        }
        Value::Tuple(items) => {
            let lanes = items.iter().map(cpython_hash).collect::<Option<Vec<_>>>()?;
            tuple_hash(&lanes)
        }
        // `torch.Size` hashes as the tuple it is.
        Value::Size(dims) => {
            let lanes: Vec<i64> = dims.iter().map(|&d| int_hash(d)).collect();
            tuple_hash(&lanes)
        }
        _ => return None,
    })
}

fn int_hash(i: i64) -> i64 {
    let h = (i.unsigned_abs() % MODULUS) as i64;
    let h = if i < 0 { -h } else { h };
    if h == -1 { -2 } else { h }
}

/// `_Py_HashDouble`: the float's exact value modulo 2**61 - 1, so `hash(2.0) == hash(2)`.
/// NaN hashes by identity in CPython 3.10+: no stable hash.
fn float_hash(x: f64) -> Option<i64> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() {
        return Some(if x > 0.0 { 314_159 } else { -314_159 });
    }
    let (mut m, mut e) = frexp(x.abs());
    let mut h: u64 = 0;
    while m != 0.0 {
        h = ((h << 28) & MODULUS) | h >> (61 - 28);
        m *= 268_435_456.0; // 2**28
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        h += y;
        if h >= MODULUS {
            h -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % 61
    } else {
        61 - 1 - ((-1 - e) % 61)
    } as u32;
    h = ((h << e) & MODULUS) | h >> (61 - e);
    let h = if x < 0.0 { -(h as i64) } else { h as i64 };
    Some(if h == -1 { -2 } else { h })
}

/// `frexp` for a finite, non-negative double: `x == m * 2**e` with `0.5 <= m < 1` (or 0).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 {
        return (0.0, 0);
    }
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exponent - 1022)
}

/// CPython 3.8+'s tuple hash (xxHash's round over the items' hashes).
pub(crate) fn tuple_hash(lanes: &[i64]) -> i64 {
    const PRIME_1: u64 = 11_400_714_785_074_694_791;
    const PRIME_2: u64 = 14_029_467_366_897_019_727;
    const PRIME_5: u64 = 2_870_177_450_012_600_261;
    let mut acc = PRIME_5;
    for &lane in lanes {
        acc = acc.wrapping_add((lane as u64).wrapping_mul(PRIME_2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(PRIME_1);
    }
    acc = acc.wrapping_add(lanes.len() as u64 ^ (PRIME_5 ^ 3_527_539));
    if acc == u64::MAX {
        return 1_546_275_796;
    }
    acc as i64
}

/// `LINEAR_PROBES` and `PERTURB_SHIFT` of CPython's `setobject.c`.
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// Where a hash lands in a table of `mask + 1` slots: CPython's probe sequence, to the first
/// free slot.
fn free_slot(table: &[Option<(u64, usize)>], mask: usize, hash: u64) -> usize {
    let mut perturb = hash;
    let mut i = hash as usize & mask;
    loop {
        let probes = if i + LINEAR_PROBES <= mask {
            LINEAR_PROBES
        } else {
            0
        };
        if let Some(free) = (i..=i + probes).find(|&j| table[j].is_none()) {
            return free;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i
            .wrapping_mul(5)
            .wrapping_add(1)
            .wrapping_add(perturb as usize))
            & mask;
    }
}

/// The positions of `items` (a set's items in insertion order) in the order CPython's set
/// holding them iterates, or `None` when some item's hash is not CPython's stable one.
pub fn set_order(items: &[Value]) -> Option<Vec<usize>> {
    if items.len() < 2 {
        return None;
    }
    let hashes = items
        .iter()
        .map(|v| cpython_hash(v).map(|h| h as u64))
        .collect::<Option<Vec<_>>>()?;
    let mut table: Vec<Option<(u64, usize)>> = vec![None; 8];
    let mut used = 0usize;
    for (at, &hash) in hashes.iter().enumerate() {
        let mask = table.len() - 1;
        let slot = free_slot(&table, mask, hash);
        table[slot] = Some((hash, at));
        used += 1;
        // `set_add_entry`: past 3/5 full, a table for four times as many (twice, past 50000).
        if used * 5 >= mask * 3 {
            let wanted = if used > 50_000 { used * 2 } else { used * 4 };
            let mut size = 8;
            while size <= wanted {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for (hash, at) in old.into_iter().flatten() {
                let slot = free_slot(&table, size - 1, hash);
                table[slot] = Some((hash, at));
            }
        }
    }
    Some(table.into_iter().flatten().map(|(_, at)| at).collect())
}

/// A set's items in the order Python iterates them (see [`set_order`]).
pub fn in_set_order(items: &[Value]) -> Vec<Value> {
    match set_order(items) {
        Some(order) => order.into_iter().map(|at| items[at].clone()).collect(),
        None => items.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_hashes_are_cpythons() {
        assert_eq!(hash(&Value::Int(-1)).ok(), Some(-2));
        assert_eq!(hash(&Value::Float(2.0)).ok(), Some(2));
        assert_eq!(
            hash(&Value::Float(0.5)).ok(),
            Some(1_152_921_504_606_846_976)
        );
        assert_eq!(
            hash(&Value::Float(-1.5)).ok(),
            Some(-1_152_921_504_606_846_977)
        );
        assert_eq!(hash(&Value::Float(f64::INFINITY)).ok(), Some(314_159));
        // hash((1, 2)) in CPython 3.11.
        let pair = Value::Tuple(vec![Value::Int(1), Value::Int(2)].into());
        assert_eq!(hash(&pair).ok(), Some(-3_550_055_125_485_641_917));
    }

    #[test]
    fn small_int_sets_iterate_by_slot_not_by_insertion() {
        let items: Vec<Value> = [5, 3, 9, 1].into_iter().map(Value::Int).collect();
        let ordered: Vec<i64> = in_set_order(&items)
            .into_iter()
            .map(|v| match v {
                Value::Int(i) => i,
                _ => -1,
            })
            .collect();
        // As CPython prints {5, 3, 9, 1}: 9 takes slot 1, so 1 probes on to slot 6.
        assert_eq!(ordered, vec![9, 3, 5, 1]);
    }
}
