//! Printing as NumPy 2.4 prints: `str` and `repr` of arrays (`array2string`: the shortest
//! digits that identify each float, cut at the print precision, with one layout (fixed or
//! scientific) for the whole array; columns padded alike; rows wrapped at 75 characters;
//! `...` past 1000 elements) and of NumPy scalars (`np.float64(1.5)` in `repr`, `1.5` in
//! `str`). `np.set_printoptions` sets the options for the notebook.

use std::cell::RefCell;

use super::array::{Data, NdArray, NpScalar, Num, Result};
use super::dtype::{Kind, NpDType};

/// `np.get_printoptions()`: the ones the lab reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintOptions {
    pub precision: usize,
    pub threshold: usize,
    pub edgeitems: usize,
    pub linewidth: usize,
    pub suppress: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 75,
            suppress: false,
        }
    }
}

thread_local! {
    static OPTIONS: RefCell<PrintOptions> = RefCell::new(PrintOptions::default());
}

/// The print options in force.
pub fn options() -> PrintOptions {
    OPTIONS.with(|o| *o.borrow())
}

/// Sets the print options (a new notebook starts from the defaults).
pub fn set_options(options: PrintOptions) {
    OPTIONS.with(|o| *o.borrow_mut() = options);
}

/// A shape as NumPy's messages write it: `(2,3)`, `(4,)`, `()`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// A shape as Python's `repr` of a tuple writes it: `(2, 3)`.
pub fn shape_tuple(shape: &[usize]) -> String {
    tolab_engine::tensor::python_tuple(shape)
}

/// The shortest decimal digits that read back as `x` in `dtype`, and the exponent of the
/// first: `x = d.ddd × 10^exponent`. `x` is finite and not zero.
fn shortest(x: f64, dtype: NpDType) -> (String, i32) {
    let text = match dtype {
        NpDType::Float32 => format!("{:e}", x as f32),
        NpDType::Float16 => (0..6)
            .map(|k| format!("{x:.k$e}"))
            .find(|t| {
                t.parse::<f64>()
                    .is_ok_and(|back| super::dtype::f16_of(back).to_f64() == x)
            })
            .unwrap_or_else(|| format!("{x:e}")),
        _ => format!("{x:e}"),
    };
    // Where two shortest candidates are equally near (the value lies halfway), Dragon4 takes
    // the even digit: the value rounded exactly to that many digits (half to even) is it.
    let (digits, _) = split_scientific(&text);
    let exact = format!("{x:.p$e}", p = digits.len().saturating_sub(1));
    split_scientific(&exact)
}

/// `-1.25e3` as (`125`, 3), the sign dropped.
fn split_scientific(text: &str) -> (String, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_owned(), exponent.parse().unwrap_or(0))
}

/// Dragon4 in positional mode with NumPy's "unique" digits: the integer and fraction parts
/// (no sign), the fraction cut at `precision` digits (the exact value rounded, half to even)
/// and trimmed of trailing zeros.
fn positional_parts(x: f64, dtype: NpDType, precision: Option<usize>) -> (String, String) {
    let x = x.abs();
    if x == 0.0 {
        return ("0".into(), String::new());
    }
    let (digits, exponent) = shortest(x, dtype);
    let fraction_len = (digits.len() as i32 - 1 - exponent).max(0) as usize;
    let text = match precision {
        Some(p) if fraction_len > p => format!("{x:.p$}"),
        _ => {
            let point = exponent + 1;
            if point <= 0 {
                format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
            } else if point as usize >= digits.len() {
                format!("{digits}{}", "0".repeat(point as usize - digits.len()))
            } else {
                let (whole, fraction) = digits.split_at(point as usize);
                format!("{whole}.{fraction}")
            }
        }
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    (whole.to_owned(), fraction.trim_end_matches('0').to_owned())
}

/// Dragon4 in scientific mode: the mantissa's first digit, its fraction (cut at `precision`
/// digits, trimmed) and the exponent.
fn scientific_parts(x: f64, dtype: NpDType, precision: Option<usize>) -> (String, String, i32) {
    let x = x.abs();
    if x == 0.0 {
        return ("0".into(), String::new(), 0);
    }
    let (digits, exponent) = shortest(x, dtype);
    let (digits, exponent) = match precision {
        Some(p) if digits.len() > p + 1 => split_scientific(&format!("{x:.p$e}")),
        _ => (digits, exponent),
    };
    let (first, rest) = digits.split_at(1);
    (first.to_owned(), rest.to_owned(), exponent)
}

fn exponent_text(exponent: i32, digits: usize) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!(
        "e{sign}{:0>digits$}",
        exponent.unsigned_abs(),
        digits = digits
    )
}

/// How every float of one array prints (NumPy's `FloatingFormat`).
struct FloatFormat {
    dtype: NpDType,
    exp_format: bool,
    precision: usize,
    /// Fraction digits every value shows at least (scientific layout).
    min_digits: usize,
    pad_left: usize,
    pad_right: usize,
    exp_size: usize,
}

impl FloatFormat {
    fn new(values: &[f64], dtype: NpDType, options: &PrintOptions) -> FloatFormat {
        let finite: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        let non_zero: Vec<f64> = finite
            .iter()
            .map(|x| x.abs())
            .filter(|&x| x != 0.0)
            .collect();
        let mut exp_format = false;
        if !non_zero.is_empty() {
            let max = non_zero.iter().copied().fold(f64::MIN, f64::max);
            let min = non_zero.iter().copied().fold(f64::MAX, f64::min);
            // NumPy 2.3+: the cutoff follows the type's precision (10**min(8, precision)).
            let cutoff = match dtype {
                NpDType::Float16 => 1e3,
                NpDType::Float32 => 1e6,
                _ => 1e8,
            };
            exp_format =
                max >= cutoff || (!options.suppress && (min < 0.0001 || max / min > 1000.0));
        }
        let mut format = FloatFormat {
            dtype,
            exp_format,
            precision: options.precision,
            min_digits: 0,
            pad_left: 0,
            pad_right: 0,
            exp_size: 0,
        };
        if finite.is_empty() {
        } else if exp_format {
            let parts: Vec<_> = finite
                .iter()
                .map(|&x| (x, scientific_parts(x, dtype, Some(options.precision))))
                .collect();
            format.precision = parts.iter().map(|(_, p)| p.1.len()).max().unwrap_or(0);
            format.min_digits = format.precision;
            format.exp_size = parts
                .iter()
                .map(|(_, p)| p.2.unsigned_abs().to_string().len().max(2))
                .max()
                .unwrap_or(2);
            format.pad_left = parts
                .iter()
                .map(|(x, p)| p.0.len() + usize::from(x.is_sign_negative()))
                .max()
                .unwrap_or(1);
            format.pad_right = format.exp_size + 2 + format.precision;
        } else {
            let parts: Vec<_> = finite
                .iter()
                .map(|&x| (x, positional_parts(x, dtype, Some(options.precision))))
                .collect();
            format.pad_left = parts
                .iter()
                .map(|(x, p)| p.0.len() + usize::from(x.is_sign_negative()))
                .max()
                .unwrap_or(1);
            format.pad_right = parts.iter().map(|(_, p)| p.1.len()).max().unwrap_or(0);
        }
        if finite.len() != values.len() {
            let negative_inf = values.iter().any(|x| x.is_infinite() && *x < 0.0);
            let offset = format.pad_right + 1;
            format.pad_left = format
                .pad_left
                .max(3usize.saturating_sub(offset))
                .max((3 + usize::from(negative_inf)).saturating_sub(offset));
        }
        format
    }

    fn text(&self, x: f64) -> String {
        if !x.is_finite() {
            let body = if x.is_nan() {
                "nan"
            } else if x < 0.0 {
                "-inf"
            } else {
                "inf"
            };
            let width = self.pad_left + self.pad_right + 1;
            return format!("{body:>width$}");
        }
        let sign = if x.is_sign_negative() { "-" } else { "" };
        if self.exp_format {
            // Every value shows `precision` digits: past the shortest ones, the exact value's
            // (NumPy's `min_digits`), so float32 0.1 shows as 1.00000001e-01.
            let (digits, exponent) = split_scientific(&format!(
                "{:.p$e}",
                x.abs(),
                p = self.precision.max(self.min_digits)
            ));
            let (first, rest) = digits.split_at(1);
            let mut fraction = rest.to_owned();
            while fraction.len() < self.min_digits {
                fraction.push('0');
            }
            let whole = format!("{sign}{}", if x == 0.0 { "0" } else { first });
            format!(
                "{whole:>width$}.{fraction}{}",
                exponent_text(exponent, self.exp_size),
                width = self.pad_left
            )
        } else {
            let (whole, fraction) = positional_parts(x, self.dtype, Some(self.precision));
            let whole = format!("{sign}{whole}");
            format!(
                "{whole:>left$}.{fraction:<right$}",
                left = self.pad_left,
                right = self.pad_right
            )
        }
    }
}

/// How each element of an array prints, fitted to the elements shown.
enum ElementFormat {
    Float(FloatFormat),
    Int(usize),
    Bool(bool),
}

impl ElementFormat {
    fn new(shown: &Data, dtype: NpDType, zero_dim: bool, options: &PrintOptions) -> Self {
        match shown {
            Data::Float(values) => ElementFormat::Float(FloatFormat::new(values, dtype, options)),
            Data::Int(values) => {
                let width = values.iter().map(|v| v.to_string().len()).max();
                ElementFormat::Int(width.unwrap_or(1))
            }
            Data::Bool(_) => ElementFormat::Bool(!zero_dim),
        }
    }

    fn text(&self, value: Num) -> String {
        match (self, value) {
            (ElementFormat::Float(f), v) => f.text(v.as_f64()),
            (ElementFormat::Int(width), v) => format!("{:>width$}", v.as_i64()),
            (ElementFormat::Bool(padded), v) => match (v.truthy(), padded) {
                (true, true) => " True".into(),
                (true, false) => "True".into(),
                (false, _) => "False".into(),
            },
        }
    }
}

/// The indices shown along each axis: all, or the first and last `edge` when summarising.
fn shown_indices(shape: &[usize], summarise: bool, edge: usize) -> Vec<Vec<usize>> {
    shape
        .iter()
        .map(|&n| {
            if summarise && n > 2 * edge {
                (0..edge).chain(n - edge..n).collect()
            } else {
                (0..n).collect()
            }
        })
        .collect()
}

/// Appends `word` to `line`, wrapping first when the line would pass `width`.
fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, prefix: &str) {
    let mut needs_wrap = line.len() + word.len() > width;
    if line.len() <= prefix.len() {
        needs_wrap = false;
    }
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = prefix.to_owned();
    }
    line.push_str(word);
}

struct Layout<'a> {
    data: &'a Data,
    shape: &'a [usize],
    format: ElementFormat,
    separator: &'a str,
    summarise: bool,
    edge: usize,
}

impl Layout<'_> {
    fn element(&self, index: &[usize]) -> String {
        let mut flat = 0;
        for (&i, &n) in index.iter().zip(self.shape) {
            flat = flat * n + i;
        }
        self.format.text(self.data.get(flat))
    }

    /// NumPy's `_formatArray` recursion.
    fn recurse(&self, index: &mut Vec<usize>, hanging: &str, width: usize) -> String {
        let axis = index.len();
        let left = self.shape.len() - axis;
        if left == 0 {
            return self.element(index);
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width.saturating_sub(1);
        let n = self.shape[axis];
        let summary = self.summarise && 2 * self.edge < n;
        let (leading, trailing) = if summary {
            (self.edge, self.edge)
        } else {
            (0, n)
        };
        let mut s = String::new();
        let child = |i: usize, index: &mut Vec<usize>| {
            index.push(i);
            let text = self.recurse(index, &next_hanging, next_width);
            index.pop();
            text
        };
        if left == 1 {
            let elem_width = width.saturating_sub(self.separator.trim_end().len().max(1));
            let mut line = hanging.to_owned();
            for i in 0..leading {
                let word = child(i, index);
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                line.push_str(self.separator);
            }
            if summary {
                extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push_str(self.separator);
            }
            for i in (2..=trailing).rev() {
                let word = child(n - i, index);
                extend_line(&mut s, &mut line, &word, elem_width, hanging);
                line.push_str(self.separator);
            }
            let word = child(n - 1, index);
            extend_line(&mut s, &mut line, &word, elem_width, hanging);
            s.push_str(&line);
        } else {
            let line_sep = format!("{}{}", self.separator.trim_end(), "\n".repeat(left - 1));
            for i in 0..leading {
                let nested = child(i, index);
                s.push_str(&format!("{hanging}{nested}{line_sep}"));
            }
            if summary {
                s.push_str(&format!("{hanging}...{line_sep}"));
            }
            for i in (2..=trailing).rev() {
                let nested = child(n - i, index);
                s.push_str(&format!("{hanging}{nested}{line_sep}"));
            }
            let nested = child(n - 1, index);
            s.push_str(&format!("{hanging}{nested}"));
        }
        format!("[{}]", &s[hanging.len().min(s.len())..])
    }
}

/// `np.array2string(a, separator=…, prefix=…)` with the suffix's width taken off the line.
fn array2string(a: &NdArray, data: &Data, separator: &str, prefix: &str, suffix: &str) -> String {
    let options = options();
    if a.size() == 0 {
        return "[]".into();
    }
    let summarise = a.size() > options.threshold;
    let shown = shown_indices(&a.shape, summarise, options.edgeitems);
    let mut flat_shown = Vec::new();
    let mut index = vec![0usize; a.shape.len()];
    collect_shown(&shown, &a.shape, &mut index, 0, &mut flat_shown);
    let shown_data = match data {
        Data::Float(v) => Data::Float(flat_shown.iter().map(|&i| v[i]).collect()),
        Data::Int(v) => Data::Int(flat_shown.iter().map(|&i| v[i]).collect()),
        Data::Bool(v) => Data::Bool(flat_shown.iter().map(|&i| v[i]).collect()),
    };
    let layout = Layout {
        data,
        shape: &a.shape,
        format: ElementFormat::new(&shown_data, a.dtype, a.shape.is_empty(), &options),
        separator,
        summarise,
        edge: options.edgeitems,
    };
    let hanging = format!(" {}", " ".repeat(prefix.len()));
    let width = options.linewidth.saturating_sub(suffix.len());
    layout.recurse(&mut Vec::new(), &hanging, width)
}

fn collect_shown(
    shown: &[Vec<usize>],
    shape: &[usize],
    index: &mut [usize],
    axis: usize,
    out: &mut Vec<usize>,
) {
    if axis == shape.len() {
        let mut flat = 0;
        for (&i, &n) in index.iter().zip(shape) {
            flat = flat * n + i;
        }
        out.push(flat);
        return;
    }
    for &i in &shown[axis] {
        index[axis] = i;
        collect_shown(shown, shape, index, axis + 1, out);
    }
}

/// `str(a)`.
pub fn array_str(a: &NdArray) -> Result<String> {
    if a.shape.is_empty() {
        return Ok(scalar_str(&a.scalar_at(0)?));
    }
    let data = a.data()?;
    Ok(array2string(a, &data, " ", "", ""))
}

/// `repr(a)`.
pub fn array_repr(a: &NdArray) -> Result<String> {
    let data = a.data()?;
    let prefix = "array(";
    let body = array2string(a, &data, ", ", prefix, ")");
    let options = options();
    let mut extras = Vec::new();
    if (a.size() == 0 && a.shape != [0]) || a.size() > options.threshold {
        extras.push(format!("shape={}", shape_tuple(&a.shape)));
    }
    if !a.dtype.implied() || a.size() == 0 {
        extras.push(format!("dtype={}", a.dtype.name()));
    }
    if extras.is_empty() {
        return Ok(format!("{prefix}{body})"));
    }
    let text = format!("{prefix}{body},");
    let extra = format!("{})", extras.join(", "));
    let last_line = text.len() - text.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_line + extra.len() + 1 > options.linewidth {
        format!("\n{}", " ".repeat(prefix.len()))
    } else {
        " ".into()
    };
    Ok(format!("{text}{spacer}{extra}"))
}

/// A float as NumPy's scalar `str` writes it (Python's float repr, with the type's own
/// shortest digits).
fn float_str(x: f64, dtype: NpDType) -> String {
    if dtype == NpDType::Float64 || !x.is_finite() {
        return tolab_engine::repr::python_float(x);
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let (digits, exponent) = shortest(x.abs(), dtype);
    // Positional from 1e-4 up to 10**precision of the type (float16: 1e3, float32: 1e6).
    let upper = if dtype == NpDType::Float16 { 3 } else { 6 };
    tolab_engine::repr::place_digits(x < 0.0, &digits, exponent, upper)
}

/// `str(np.float64(1.5))`: `1.5`.
pub fn scalar_str(s: &NpScalar) -> String {
    match s.value {
        Num::Bool(b) => if b { "True" } else { "False" }.into(),
        Num::Int(i) => i.to_string(),
        Num::Float(x) => float_str(x, s.dtype),
    }
}

/// `repr(np.float64(1.5))`: `np.float64(1.5)`.
pub fn scalar_repr(s: &NpScalar) -> String {
    match s.dtype.kind() {
        Kind::Bool => if s.value.truthy() {
            "np.True_"
        } else {
            "np.False_"
        }
        .into(),
        _ => format!("np.{}({})", s.dtype.name(), scalar_str(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positional_digits_are_the_shortest_cut_at_the_precision() {
        assert_eq!(
            positional_parts(0.1, NpDType::Float64, Some(8)),
            ("0".into(), "1".into())
        );
        assert_eq!(
            positional_parts(1.0 / 3.0, NpDType::Float64, Some(8)),
            ("0".into(), "33333333".into())
        );
        assert_eq!(
            positional_parts(2.0, NpDType::Float64, Some(8)),
            ("2".into(), String::new())
        );
        assert_eq!(
            positional_parts(0.1f32 as f64, NpDType::Float32, Some(8)),
            ("0".into(), "1".into())
        );
    }

    #[test]
    fn scalar_str_uses_the_type_own_digits() {
        let s = NpScalar::new(NpDType::Float32, Num::Float(0.1));
        assert_eq!(scalar_str(&s), "0.1");
        assert_eq!(scalar_repr(&s), "np.float32(0.1)");
    }
}
