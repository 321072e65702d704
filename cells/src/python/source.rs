//! A cell's source: its name as tracebacks print it (`<cell 3>`), its lines, and parsing with
//! Astral's parser, whose errors come back as Python's `SyntaxError` (line, column, caret).

use ruff_python_ast::ModModule;
use ruff_source_file::LineIndex;
use ruff_text_size::{TextRange, TextSize};

use super::exception::PyException;

/// One cell's text.
pub struct CellSource {
    pub name: std::rc::Rc<str>,
    pub text: String,
    lines: LineIndex,
}

impl CellSource {
    pub fn new(name: &str, text: &str) -> CellSource {
        CellSource {
            name: name.into(),
            text: text.to_owned(),
            lines: LineIndex::from_source_text(text),
        }
    }

    /// The 1-based line and column of a byte offset.
    pub fn position(&self, offset: TextSize) -> (usize, usize) {
        let at = self.lines.line_column(offset, &self.text);
        (at.line.get(), at.column.get())
    }

    /// The text of a 1-based line, without its newline.
    pub fn line(&self, line: usize) -> &str {
        self.text.lines().nth(line.saturating_sub(1)).unwrap_or("")
    }

    /// The 1-based line a range starts on.
    pub fn line_of(&self, range: TextRange) -> usize {
        self.line_at(range.start())
    }

    /// The 1-based line a byte offset is on (without counting its column).
    pub fn line_at(&self, offset: TextSize) -> usize {
        self.lines.line_index(offset).get()
    }

    /// Parses the text as one expression (`eval`), with the same errors as [`Self::parse`].
    pub fn parse_expression(&self) -> Result<ruff_python_ast::ModExpression, PyException> {
        ruff_python_parser::parse_expression(&self.text)
            .map(ruff_python_parser::Parsed::into_syntax)
            .map_err(|error| self.syntax_error(&error))
    }

    fn syntax_error(&self, error: &ruff_python_parser::ParseError) -> PyException {
        let diagnosis = super::syntax::diagnose(
            &self.text,
            &error.error.to_string(),
            error.location.start().to_usize(),
            error.location.end().to_usize(),
        );
        let text = self.line(diagnosis.line).to_owned();
        PyException::syntax_error(&self.name, &text, diagnosis)
    }

    /// Parses the cell as a module, or fails with the `SyntaxError` (or `IndentationError`,
    /// `TabError`) CPython would raise, with its line, caret and message.
    pub fn parse(&self) -> Result<ModModule, PyException> {
        ruff_python_parser::parse_module(&self.text)
            .map(ruff_python_parser::Parsed::into_syntax)
            .map_err(|error| self.syntax_error(&error))
    }
}
