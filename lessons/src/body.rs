//! A lesson's body, split into what the lab does with it: prose to read, cells to run (each
//! with the output it must print, when the file records one) and exercises.
//!
//! The body stays plain Markdown, readable anywhere: cells are ```` ```python ```` blocks, a
//! recorded output is an ```` ```output ```` block right after its cell, and an exercise is a
//! `## Exercise: <title>` section holding its task, ```` ```python starter ````, one
//! ```` ```python check <message> ```` block per check, ```` ```hint ```` blocks and a
//! ```` ```python solution ````. `FORMAT.md` is the instructors' reference.

use crate::error::LessonErrorKind;

/// One part of a lesson body, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Markdown to read.
    Prose(String),
    Cell(Cell),
    Exercise(Exercise),
}

/// A runnable cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub source: String,
    /// What running it must show (stdout, warnings, the value, a traceback), where `...` stands
    /// for any text; `None` when the file records no output.
    pub expected: Option<String>,
    /// 1-based line of the cell's opening fence in the file.
    pub line: usize,
}

impl Cell {
    /// Whether `shown` (what running the cell showed) is the recorded output, where `...`
    /// stands for any text (doctest's ELLIPSIS) and trailing spaces and blank lines do not count.
    /// A cell with no recorded output accepts anything.
    pub fn accepts(&self, shown: &str) -> bool {
        let Some(expected) = &self.expected else {
            return true;
        };
        let (expected, shown) = (normalise(expected), normalise(shown));
        let mut pieces = expected.split("...");
        let first = pieces.next().unwrap_or_default();
        let Some(mut rest) = shown.strip_prefix(first) else {
            return false;
        };
        let pieces: Vec<&str> = pieces.collect();
        let Some((last, middle)) = pieces.split_last() else {
            return rest.is_empty();
        };
        for piece in middle {
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
        rest.ends_with(last)
    }
}

/// Text without trailing spaces on its lines or blank lines at its end.
fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_owned()
}

/// An exercise: a task, the learner's starting code, the checks run after it, hints and a
/// solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exercise {
    /// From the title, for addresses and progress: `move-the-model`.
    pub id: String,
    pub title: String,
    /// The task, in Markdown.
    pub task: String,
    pub starter: String,
    /// The lesson's cells a check runs first, in a fresh notebook, so that the exercise works on
    /// a page where the learner ran nothing.
    pub uses: Uses,
    pub checks: Vec<Check>,
    /// Revealed one at a time, in order.
    pub hints: Vec<String>,
    pub solution: String,
    pub line: usize,
}

/// Which of the lesson's cells an exercise stands on (the starter fence's `uses=`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Uses {
    /// Every cell above the exercise, in order (no `uses=`).
    #[default]
    Above,
    /// These cells, by number (`uses=1,3`), in order; none for `uses=none`.
    Cells(Vec<usize>),
}

/// A check of an exercise: Python run after the learner's code, in the same session; it passes
/// when it raises nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What it checks, shown to the learner: `every parameter is on cuda:0`.
    pub message: String,
    pub code: String,
    pub line: usize,
}

/// What a fenced block's info string says it is, when it is more than code to read.
enum Fence {
    Cell,
    Output,
    Starter(Uses),
    Check(String),
    Hint,
    Solution,
}

impl Fence {
    /// `None` for any other code block (```text, ```sh, …): part of the prose; an error for a
    /// starter whose `uses=` is not a list of cell numbers.
    fn of(info: &str) -> Result<Option<Fence>, LessonErrorKind> {
        let info = info.trim();
        let (kind, rest) = info.split_once(char::is_whitespace).unwrap_or((info, ""));
        let mut words = rest.split_whitespace();
        if kind == "python" && words.next() == Some("starter") {
            return Ok(Some(Fence::Starter(match words.next() {
                None => Uses::Above,
                Some(uses) => parse_uses(uses, words.next())?,
            })));
        }
        Ok(Some(match (kind, rest.trim()) {
            ("python", "") => Fence::Cell,
            ("python", "solution") => Fence::Solution,
            ("python", rest) if rest.split_whitespace().next() == Some("check") => {
                Fence::Check(rest["check".len()..].trim().to_owned())
            }
            ("output", "") => Fence::Output,
            ("hint", "") => Fence::Hint,
            _ => return Ok(None),
        }))
    }
}

/// `uses=1,3` or `uses=none` (and nothing after it).
fn parse_uses(word: &str, extra: Option<&str>) -> Result<Uses, LessonErrorKind> {
    let bad = || LessonErrorKind::BadUses {
        text: word.to_owned(),
    };
    let list = word.strip_prefix("uses=").ok_or_else(bad)?;
    if extra.is_some() {
        return Err(bad());
    }
    if list == "none" {
        return Ok(Uses::Cells(Vec::new()));
    }
    let numbers: Vec<usize> = list
        .split(',')
        .map(|n| n.parse().ok().filter(|n| *n > 0))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if numbers.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad());
    }
    Ok(Uses::Cells(numbers))
}

/// A fence's opening line: its marker (three or more backticks or tildes) and its info string.
fn opening_fence(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let marker_char = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = trimmed.chars().take_while(|c| *c == marker_char).count();
    (length >= 3).then(|| trimmed.split_at(length))
}

/// Whether `line` closes a fence opened with `marker`.
fn closes(line: &str, marker: &str) -> bool {
    let trimmed = line.trim();
    let first = marker.chars().next();
    trimmed.len() >= marker.len() && trimmed.chars().all(|c| Some(c) == first)
}

/// A Markdown heading: its level and text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    let rest = &line[level..];
    ((1..=6).contains(&level) && (rest.is_empty() || rest.starts_with(' ')))
        .then(|| (level, rest.trim()))
}

/// The body read so far.
#[derive(Default)]
struct Reader {
    blocks: Vec<Block>,
    /// Prose not yet filed (an exercise's task, inside one).
    prose: String,
    exercise: Option<Exercise>,
    /// Whether an output block may follow: the last thing read was a cell, then blank lines.
    after_cell: bool,
}

type Failure = (usize, LessonErrorKind);

impl Reader {
    fn prose_line(&mut self, line: &str) {
        if !line.trim().is_empty() {
            self.after_cell = false;
        }
        self.prose.push_str(line);
        self.prose.push('\n');
    }

    /// Files the prose read so far: as the exercise's task inside one, else as a block.
    fn file_prose(&mut self) {
        let prose = std::mem::take(&mut self.prose);
        let prose = prose.trim();
        if prose.is_empty() {
            return;
        }
        match &mut self.exercise {
            Some(exercise) => {
                if !exercise.task.is_empty() {
                    exercise.task.push_str("\n\n");
                }
                exercise.task.push_str(prose);
            }
            None => self.blocks.push(Block::Prose(prose.to_owned())),
        }
    }

    fn start_exercise(&mut self, title: &str, line: usize) -> Result<(), Failure> {
        self.end_exercise()?;
        self.file_prose();
        self.exercise = Some(Exercise {
            id: slugify(title),
            title: title.to_owned(),
            task: String::new(),
            starter: String::new(),
            uses: Uses::Above,
            checks: Vec::new(),
            hints: Vec::new(),
            solution: String::new(),
            line,
        });
        Ok(())
    }

    /// Ends the exercise being read, if any, checking that it has what an exercise needs.
    fn end_exercise(&mut self) -> Result<(), Failure> {
        self.file_prose();
        let Some(exercise) = self.exercise.take() else {
            return Ok(());
        };
        let missing = if exercise.starter.is_empty() {
            Some("a ```python starter block")
        } else if exercise.solution.is_empty() {
            Some("a ```python solution block")
        } else if exercise.checks.is_empty() {
            Some("at least one ```python check <message> block")
        } else {
            None
        };
        if let Some(what) = missing {
            return Err((exercise.line, LessonErrorKind::IncompleteExercise { what }));
        }
        self.blocks.push(Block::Exercise(exercise));
        Ok(())
    }

    /// Files a fenced block opened on `line`.
    fn fenced(&mut self, fence: Fence, text: String, line: usize) -> Result<(), Failure> {
        let after_cell = std::mem::take(&mut self.after_cell);
        if let Some(exercise) = &mut self.exercise {
            let twice = |what| Err((line, LessonErrorKind::Twice { what }));
            match fence {
                Fence::Starter(_) if !exercise.starter.is_empty() => return twice("starter"),
                Fence::Starter(uses) => {
                    let above = self
                        .blocks
                        .iter()
                        .filter(|b| matches!(b, Block::Cell(_)))
                        .count();
                    if let Uses::Cells(cells) = &uses
                        && let Some(&beyond) = cells.iter().find(|n| **n > above)
                    {
                        return Err((
                            line,
                            LessonErrorKind::UsesCellBelow {
                                cell: beyond,
                                above,
                            },
                        ));
                    }
                    exercise.uses = uses;
                    exercise.starter = text;
                }
                Fence::Solution if !exercise.solution.is_empty() => return twice("solution"),
                Fence::Solution => exercise.solution = text,
                Fence::Check(message) if message.is_empty() => {
                    return Err((line, LessonErrorKind::CheckWithoutMessage));
                }
                Fence::Check(message) => exercise.checks.push(Check {
                    message,
                    code: text,
                    line,
                }),
                Fence::Hint => exercise.hints.push(text),
                Fence::Cell | Fence::Output => {
                    return Err((line, LessonErrorKind::CellInExercise));
                }
            }
            return Ok(());
        }
        match fence {
            Fence::Cell => {
                self.file_prose();
                self.blocks.push(Block::Cell(Cell {
                    source: text,
                    expected: None,
                    line,
                }));
                self.after_cell = true;
            }
            Fence::Output => match self.blocks.last_mut() {
                Some(Block::Cell(cell)) if after_cell => cell.expected = Some(text),
                _ => return Err((line, LessonErrorKind::OutputWithoutCell)),
            },
            Fence::Starter(_) | Fence::Check(_) | Fence::Hint | Fence::Solution => {
                return Err((line, LessonErrorKind::OutsideExercise));
            }
        }
        Ok(())
    }
}

/// Splits `body`, whose first line is line `first_line` of its file, into blocks.
pub fn parse(body: &str, first_line: usize) -> Result<Vec<Block>, Failure> {
    let mut reader = Reader::default();
    let mut lines = body.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let at = first_line + i;
        if let Some((marker, info)) = opening_fence(line) {
            let fence = Fence::of(info).map_err(|kind| (at, kind))?;
            let mut text: Vec<&str> = Vec::new();
            let mut closed = false;
            for (_, inner) in lines.by_ref() {
                if closes(inner, marker) {
                    closed = true;
                    break;
                }
                text.push(inner);
            }
            if !closed {
                return Err((at, LessonErrorKind::UnclosedFence));
            }
            match fence {
                Some(fence) => reader.fenced(fence, text.join("\n"), at)?,
                None => {
                    reader.prose_line(line);
                    text.iter().for_each(|l| reader.prose_line(l));
                    reader.prose_line(marker);
                }
            }
        } else if let Some((level, text)) = heading(line) {
            match text.strip_prefix("Exercise:") {
                Some(title) => reader.start_exercise(title.trim(), at)?,
                None => {
                    if level <= 2 {
                        reader.end_exercise()?;
                    }
                    reader.prose_line(line);
                }
            }
        } else {
            reader.prose_line(line);
        }
    }
    reader.end_exercise()?;
    reader.file_prose();
    Ok(reader.blocks)
}

/// `Move the model to cuda:0` → `move-the-model-to-cuda-0`.
fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "# Title\n\nIntro.\n\n```python\nx = 1\nx\n```\n\n```output\n1\n```\n\n```text\nnot a cell\n```\n\n## Exercise: Move it to cuda:0\n\nDo the thing.\n\n```python starter\ny = x\n```\n\n```python check y is on cuda:0\nassert y == 1\n```\n\n```hint\nFirst hint.\n```\n\n```hint\nSecond.\n```\n\n```python solution\ny = x\n```\n\n## After\n\nMore prose.\n";

    #[test]
    fn cells_outputs_exercises_and_prose_come_apart_in_order() {
        let blocks = parse(BODY, 10).unwrap();
        assert_eq!(blocks.len(), 5, "{blocks:#?}");
        assert_eq!(blocks[0], Block::Prose("# Title\n\nIntro.".into()));
        assert_eq!(
            blocks[1],
            Block::Cell(Cell {
                source: "x = 1\nx".into(),
                expected: Some("1".into()),
                line: 14,
            })
        );
        assert_eq!(blocks[2], Block::Prose("```text\nnot a cell\n```".into()));
        let Block::Exercise(exercise) = &blocks[3] else {
            panic!("an exercise")
        };
        assert_eq!(exercise.id, "move-it-to-cuda-0");
        assert_eq!(exercise.title, "Move it to cuda:0");
        assert_eq!(exercise.task, "Do the thing.");
        assert_eq!(exercise.starter, "y = x");
        assert_eq!(exercise.checks[0].message, "y is on cuda:0");
        assert_eq!(exercise.checks[0].line, 35);
        assert_eq!(exercise.hints, ["First hint.", "Second."]);
        assert_eq!(exercise.solution, "y = x");
        assert_eq!(exercise.line, 27);
        assert_eq!(blocks[4], Block::Prose("## After\n\nMore prose.".into()));
    }

    #[test]
    fn recorded_outputs_match_with_ellipses_standing_for_any_text() {
        let cell = |expected: &str| Cell {
            source: String::new(),
            expected: Some(expected.into()),
            line: 1,
        };
        assert!(cell("tensor([1., 2.])").accepts("tensor([1., 2.])\n"));
        assert!(!cell("tensor([1., 2.])").accepts("tensor([1., 3.])\n"));
        let traceback = cell(
            "Traceback (most recent call last):\n...\nRuntimeError: Expected all tensors to be on the same device...",
        );
        assert!(traceback.accepts("Traceback (most recent call last):\n  File \"<cell 1>\", line 2, in <module>\n    a + b\nRuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"));
        assert!(!traceback.accepts("Traceback (most recent call last):\nValueError: no"));
        assert!(cell("took ... ms\ndone").accepts("took 3.2 ms  \ndone\n\n"));
        assert!(!cell("a...b...c").accepts("a c b"));
        assert!(cell("...").accepts("anything"));
        assert!(
            Cell {
                source: String::new(),
                expected: None,
                line: 1
            }
            .accepts("whatever")
        );
    }

    #[test]
    fn a_starter_names_the_cells_its_exercise_uses_or_none() {
        let exercise = |fence: &str| {
            let body = format!(
                "```python\na = 1\n```\n```python\nb = 2\n```\n## Exercise: E\n\n```{fence}\nx\n```\n\n```python check c\nx\n```\n\n```python solution\nx\n```\n"
            );
            match parse(&body, 1).unwrap().pop() {
                Some(Block::Exercise(e)) => e.uses,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(exercise("python starter"), Uses::Above);
        assert_eq!(exercise("python starter uses=2"), Uses::Cells(vec![2]));
        assert_eq!(exercise("python starter uses=1,2"), Uses::Cells(vec![1, 2]));
        assert_eq!(exercise("python starter uses=none"), Uses::Cells(vec![]));
    }

    #[test]
    fn malformed_bodies_name_the_line_and_what_is_wrong() {
        let cases: [(&str, usize, LessonErrorKind); 8] = [
            (
                "```python\nx = 1\n```\n## Exercise: E\n\n```python starter uses=2\nx\n```\n",
                6,
                LessonErrorKind::UsesCellBelow { cell: 2, above: 1 },
            ),
            (
                "## Exercise: E\n\n```python starter uses=2,1\nx\n```\n",
                3,
                LessonErrorKind::BadUses {
                    text: "uses=2,1".into(),
                },
            ),
            (
                "## Exercise: E\n\n```python starter needs=1\nx\n```\n",
                3,
                LessonErrorKind::BadUses {
                    text: "needs=1".into(),
                },
            ),
            (
                "text\n\n```output\n1\n```\n",
                3,
                LessonErrorKind::OutputWithoutCell,
            ),
            ("```python\nx\n", 1, LessonErrorKind::UnclosedFence),
            (
                "```python starter\nx\n```\n",
                1,
                LessonErrorKind::OutsideExercise,
            ),
            (
                "## Exercise: E\n\n```python starter\nx\n```\n\n```python check\nx\n```\n",
                7,
                LessonErrorKind::CheckWithoutMessage,
            ),
            (
                "## Exercise: E\n\n```python starter\nx\n```\n",
                1,
                LessonErrorKind::IncompleteExercise {
                    what: "a ```python solution block",
                },
            ),
        ];
        for (body, line, kind) in cases {
            assert_eq!(parse(body, 1), Err((line, kind)), "{body}");
        }
    }
}
