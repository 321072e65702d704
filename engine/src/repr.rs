//! Printing tensors exactly as PyTorch does (torch/_tensor_str.py), under the print options
//! `torch.set_printoptions` sets (by default precision 4, line width 80, summarising past 1000
//! elements with 3 edge items).
//!
//! One formatter is chosen for the whole tensor (from the elements that will be shown): integers
//! print as they are; floats print in "int mode" (`1.`) when every finite value is whole,
//! in scientific notation when the magnitudes span more than 1000× or pass 1e8 (or, outside int
//! mode, drop below 1e-4) unless the options fix `sci_mode`, and with `precision` decimals
//! otherwise. Every element is padded to one width.

use crate::element::Scalar;

/// `torch.set_printoptions`'s state (`torch._tensor_str.PRINT_OPTS`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintOptions {
    pub precision: usize,
    /// More elements than this are summarised (infinite in the "full" profile).
    pub threshold: f64,
    pub edgeitems: usize,
    pub linewidth: usize,
    /// `None`: chosen from the values.
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000.0,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

impl PrintOptions {
    /// The options of a named profile: "default", "short" or "full". Like PyTorch's, a profile
    /// leaves `sci_mode` to the caller.
    pub fn profile(name: &str) -> Option<PrintOptions> {
        let default = PrintOptions::default();
        match name {
            "default" => Some(default),
            "short" => Some(PrintOptions {
                precision: 2,
                edgeitems: 2,
                ..default
            }),
            "full" => Some(PrintOptions {
                threshold: f64::INFINITY,
                ..default
            }),
            _ => None,
        }
    }
}

/// The text between `tensor(` and the suffixes: `[[1., 2.],\n        [3., 4.]]`. `values` are the
/// elements in row-major order; `indent` is the column the text starts at.
pub fn format_values(
    values: &[Scalar],
    shape: &[usize],
    indent: usize,
    options: &PrintOptions,
) -> String {
    if values.is_empty() {
        return "[]".into();
    }
    let summarize = values.len() as f64 > options.threshold;
    let shown: Vec<Scalar> = if summarize {
        summarized_indices(shape, options.edgeitems)
            .into_iter()
            .map(|i| values[i])
            .collect()
    } else {
        values.to_vec()
    };
    let formatter = Formatter::new(&shown, options);
    let strides = crate::layout::contiguous_strides(shape);
    let block = Block {
        values,
        shape,
        strides: &strides,
        summarize,
        formatter: &formatter,
        options,
    };
    block.format(0, 0, indent)
}

/// Row-major indices of the elements a summarised print shows (ATen's `get_summarized_data`).
fn summarized_indices(shape: &[usize], edge: usize) -> Vec<usize> {
    fn walk(shape: &[usize], edge: usize, stride_base: usize, out: &mut Vec<usize>) {
        let Some((&first, rest)) = shape.split_first() else {
            out.push(stride_base);
            return;
        };
        let inner: usize = rest.iter().product();
        for i in edge_positions(first, edge) {
            walk(rest, edge, stride_base + i * inner, out);
        }
    }
    let mut out = Vec::new();
    walk(shape, edge, 0, &mut out);
    out
}

/// The positions along one dimension a summarised print shows.
fn edge_positions(size: usize, edge: usize) -> Vec<usize> {
    if size > 2 * edge {
        (0..edge).chain(size - edge..size).collect()
    } else {
        (0..size).collect()
    }
}

struct Formatter {
    floating: bool,
    int_mode: bool,
    sci_mode: bool,
    precision: usize,
    width: usize,
}

impl Formatter {
    fn new(values: &[Scalar], options: &PrintOptions) -> Self {
        let floating = values.iter().any(|v| matches!(v, Scalar::Float(_)));
        let precision = options.precision;
        let mut f = Formatter {
            floating,
            int_mode: true,
            sci_mode: false,
            precision,
            width: 1,
        };
        if !floating {
            f.width = values.iter().map(|v| plain(*v).len()).max().unwrap_or(1);
            return f;
        }
        let finite: Vec<f64> = values
            .iter()
            .map(|v| v.as_f64())
            .filter(|x| x.is_finite() && *x != 0.0)
            .collect();
        if finite.is_empty() {
            return f;
        }
        let min = finite.iter().fold(f64::INFINITY, |m, x| m.min(x.abs()));
        let max = finite.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        f.int_mode = finite.iter().all(|x| x.ceil() == *x);
        f.sci_mode = options
            .sci_mode
            .unwrap_or(max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4);
        f.width = finite
            .iter()
            .map(|&x| match (f.sci_mode, f.int_mode) {
                (true, _) => sci(x, precision).len(),
                (false, true) => format!("{x:.0}").len() + 1,
                (false, false) => format!("{x:.precision$}").len(),
            })
            .max()
            .unwrap_or(1);
        f
    }

    fn format(&self, value: Scalar) -> String {
        let text = match value {
            Scalar::Float(x) if self.floating => {
                if !x.is_finite() {
                    non_finite(x)
                } else if self.sci_mode {
                    sci(x, self.precision)
                } else if self.int_mode {
                    format!("{x:.0}.")
                } else {
                    format!("{x:.*}", self.precision)
                }
            }
            other => plain(other),
        };
        format!("{text:>width$}", width = self.width)
    }
}

/// Python's `str()` of a non-float element.
fn plain(value: Scalar) -> String {
    match value {
        Scalar::Bool(true) => "True".into(),
        Scalar::Bool(false) => "False".into(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(x) if !x.is_finite() => non_finite(x),
        Scalar::Float(x) => format!("{x}"),
    }
}

fn non_finite(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// Python's `'{:.4e}'.format(x)` (at `precision` digits): a two-digit, signed exponent.
fn sci(x: f64, precision: usize) -> String {
    let text = format!("{x:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let (sign, digits) = match exponent.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exponent),
    };
    format!("{mantissa}e{sign}{digits:0>2}")
}

struct Block<'a> {
    values: &'a [Scalar],
    shape: &'a [usize],
    strides: &'a [usize],
    summarize: bool,
    formatter: &'a Formatter,
    options: &'a PrintOptions,
}

impl Block<'_> {
    /// Formats the sub-tensor at `dim` starting at flat index `base`.
    fn format(&self, dim: usize, base: usize, indent: usize) -> String {
        let rank = self.shape.len();
        if rank == 0 {
            return self.formatter.format(self.values[0]);
        }
        let size = self.shape[dim];
        let edge = self.options.edgeitems;
        let positions: Vec<Option<usize>> = if self.summarize && size > 2 * edge {
            let edges = edge_positions(size, edge);
            edges[..edge]
                .iter()
                .map(|&i| Some(i))
                .chain([None])
                .chain(edges[edge..].iter().map(|&i| Some(i)))
                .collect()
        } else {
            (0..size).map(Some).collect()
        };
        if dim + 1 == rank {
            if self.summarize && edge == 0 {
                return "[...]".into();
            }
            let items: Vec<String> = positions
                .iter()
                .map(|p| match p {
                    Some(i) => self
                        .formatter
                        .format(self.values[base + i * self.strides[dim]]),
                    None => " ...".into(),
                })
                .collect();
            let per_line = ((self.options.linewidth.saturating_sub(indent))
                / (self.formatter.width + 2))
                .max(1);
            let lines: Vec<String> = items.chunks(per_line).map(|c| c.join(", ")).collect();
            return format!(
                "[{}]",
                lines.join(&format!(",\n{}", " ".repeat(indent + 1)))
            );
        }
        let rows: Vec<String> = positions
            .iter()
            .map(|p| match p {
                Some(i) => self.format(dim + 1, base + i * self.strides[dim], indent + 1),
                None => "...".into(),
            })
            .collect();
        let separator = format!(",{}{}", "\n".repeat(rank - dim - 1), " ".repeat(indent + 1));
        format!("[{}]", rows.join(&separator))
    }
}

/// Appends `, suffix` items after the tensor text, wrapping onto a new line (indented) when a line
/// would pass the line width, then closes the parenthesis (`_add_suffixes`).
pub fn add_suffixes(text: &str, suffixes: &[String], indent: usize, linewidth: usize) -> String {
    let mut out = String::from(text);
    // Python's `len(s) - s.rfind("\n") + 1`, where rfind gives -1 for a single line.
    let mut last_line_len = match text.rfind('\n') {
        Some(i) => text.len() - i + 1,
        None => text.len() + 2,
    };
    for suffix in suffixes {
        if last_line_len + suffix.len() + 2 > linewidth {
            out.push_str(&format!(",\n{}{suffix}", " ".repeat(indent)));
            last_line_len = indent + suffix.len();
        } else {
            out.push_str(&format!(", {suffix}"));
            last_line_len += suffix.len() + 2;
        }
    }
    out.push(')');
    out
}

/// Python's `repr(float)`: the shortest digits that read back the same value, in fixed notation
/// for exponents from -4 to 15 and scientific (`1e-08`) outside them.
pub fn python_float(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x);
    }
    let shortest = format!("{x:e}");
    // Where two shortest strings are equally near `x` (9.3435821533203125 has 9.343582153320312
    // and …313), Python takes the even one and Rust's shortest form the upper: the correctly
    // rounded digits of the same length, rounded half to even, are Python's.
    let length = shortest
        .split('e')
        .next()
        .map_or(1, |m| m.chars().filter(char::is_ascii_digit).count());
    let rounded = format!("{x:.*e}", length.saturating_sub(1));
    let scientific = match rounded.parse::<f64>() {
        Ok(back) if back == x => rounded,
        _ => shortest,
    };
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    place_digits(negative, &digits, exponent, 16)
}

/// Shortest `digits` (`d1 d2 …`, the value `d1.d2… × 10**exponent`) written as Python writes a
/// float: positional for exponents from -4 up to `fixed_below` (exclusive), else scientific with
/// a signed exponent of at least two digits (`1e-08`). NumPy's scalars use it with their type's
/// own bound.
pub fn place_digits(negative: bool, digits: &str, exponent: i32, fixed_below: i32) -> String {
    let sign = if negative { "-" } else { "" };
    if (-4..fixed_below).contains(&exponent) {
        let point = exponent + 1;
        let body = if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            let (whole, fraction) = digits.split_at(point as usize);
            format!("{whole}.{fraction}")
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{sign}{first}{fraction}e{exponent_sign}{:02}",
            exponent.unsigned_abs()
        )
    }
}

#[cfg(test)]
mod python_float_tests {
    use super::python_float;

    #[test]
    // The tie cases are written out exactly: each is halfway between two 16-digit decimals.
    #[allow(clippy::excessive_precision)]
    fn python_float_matches_pythons_repr() {
        let cases = [
            (0.001, "0.001"),
            (1e-8, "1e-08"),
            (0.9, "0.9"),
            (0.999, "0.999"),
            (1.0, "1.0"),
            (-2.5, "-2.5"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456789.0, "123456789.0"),
            (1e16, "1e+16"),
            (1.5e300, "1.5e+300"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            // Exact ties between two shortest forms: the even one, as Python.
            (9.3435821533203125, "9.343582153320312"),
            (8.2262115478515625, "8.226211547851562"),
            (30.727920532226562, "30.727920532226562"),
        ];
        for (x, text) in cases {
            assert_eq!(python_float(x), text, "{x}");
        }
    }
}
