//! The README and the guide in `docs/` cannot go stale unnoticed: every link between them
//! leads to a file and a heading that exist, every command they show is one the program takes
//! (parsed by the same command line, with the same refusals of options that do not apply),
//! every example in a `console` block is run and prints what the page shows, and the README
//! stays a page a player reads in five minutes.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::FromArgMatches;
use tictactoe::cli::{self, Cli};

/// The README and every page of the guide.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("a docs directory")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for (i, top) in ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        .iter()
        .enumerate()
    {
        pages.insert(i, root.join(top));
    }
    pages
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// The anchor a code host gives a heading: lower case, punctuation dropped, spaces as dashes.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).unwrap();
    prose(&text)
        .into_iter()
        .filter_map(|(_, line)| {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            (1..=6)
                .contains(&hashes)
                .then(|| line[hashes..].strip_prefix(' '))
                .flatten()
                .map(anchor)
        })
        .collect()
}

/// The targets of the Markdown links in `line`: `[text](target)`.
fn links(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &line[i + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn every_link_in_the_readme_and_the_guide_leads_to_a_page_and_heading_that_exist() {
    let mut broken = Vec::new();
    for page in documents() {
        let text = fs::read_to_string(&page).unwrap();
        for (number, line) in prose(&text) {
            for target in links(line) {
                if target.starts_with("http") || target.contains(' ') {
                    continue;
                }
                let (file, heading) = target.split_once('#').unwrap_or((target, ""));
                let to = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                let ok = to.exists()
                    && (heading.is_empty()
                        || to.extension().is_none_or(|e| e != "md")
                        || anchors(&to).contains(heading));
                if !ok {
                    broken.push(format!("{}:{number}: {target}", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Every `tictactoe …` command in the shell blocks of `text`: the prompt, the comment and
/// anything after a pipe or a redirection left out.
fn commands(text: &str) -> Vec<(usize, Vec<String>)> {
    let (mut shell, mut console) = (false, false);
    let mut fenced = false;
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            shell = line == "```sh";
            console = line == "```console";
            continue;
        }
        // In a console block only the lines after a prompt are commands; the rest is output.
        let prompted = fenced && line.starts_with("$ ");
        if console && !prompted {
            continue;
        }
        let line = line.trim().trim_start_matches("$ ");
        // A command fed by a pipe: the program's part.
        let line = line.rsplit_once("| tictactoe").map_or(line, |(_, after)| {
            &line[line.len() - after.len() - "tictactoe".len()..]
        });
        if !(shell || prompted) || !line.starts_with("tictactoe ") && line != "tictactoe" {
            continue;
        }
        let command = line
            .split(" #")
            .next()
            .unwrap()
            .split(['|', '<', '>', ';', '&'])
            .next()
            .unwrap();
        found.push((
            i + 1,
            command.split_whitespace().map(str::to_string).collect(),
        ));
    }
    found
}

#[test]
fn every_command_the_readme_and_the_guide_show_is_one_the_program_takes() {
    let mut refused = Vec::new();
    let mut checked = 0;
    for page in documents() {
        let text = fs::read_to_string(&page).unwrap();
        for (number, args) in commands(&text) {
            checked += 1;
            let outcome = match cli::command().try_get_matches_from(&args) {
                Ok(matches) => Cli::from_arg_matches(&matches)
                    .map_err(|e| e.to_string())
                    .and_then(|cli| {
                        cli::misplaced(&matches)
                            .or_else(|| cli::contradiction(&matches, &cli))
                            .map_or(Ok(()), Err)
                    }),
                // `-h` and `-V` are taken: clap answers them with their text.
                Err(e)
                    if matches!(
                        e.kind(),
                        clap::error::ErrorKind::DisplayHelp
                            | clap::error::ErrorKind::DisplayVersion
                    ) =>
                {
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            };
            if let Err(why) = outcome {
                let first = why.lines().next().unwrap_or_default().to_string();
                refused.push(format!(
                    "{}:{number}: {}: {first}",
                    page.display(),
                    args.join(" ")
                ));
            }
        }
    }
    assert!(checked >= 20, "only {checked} commands found");
    assert!(
        refused.is_empty(),
        "commands refused:\n{}",
        refused.join("\n")
    );
}

#[test]
fn the_readme_is_at_most_400_lines_with_a_contents_list_and_every_guide_page_has_one() {
    let pages = documents();
    let readme = fs::read_to_string(&pages[0]).unwrap();
    assert!(
        readme.lines().count() <= 400,
        "{} lines",
        readme.lines().count()
    );
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        assert!(
            text.contains("**Contents**"),
            "{} has no contents list",
            page.display()
        );
    }
}

/// A command shown in a `console` block, run as the reader would run it, and what the page
/// says it prints.
struct Example {
    /// Where it is shown: the page and the line of the command.
    place: String,
    /// The shell command after `$ `, its comment left out.
    command: String,
    /// The exit status the page gives (`# exits with status 2`), else 0.
    status: i32,
    /// The lines shown below the command, up to the next command or the end of the block.
    output: Vec<String>,
}

/// The examples of the `console` blocks of `text`: a line beginning `$ ` is a command, and the
/// lines under it are its output. `$ export TICTACTOE_HOME=$(mktemp -d)` starts the page's
/// examples after it from an empty profile, as it would for the reader.
fn examples(page: &Path, text: &str) -> Vec<Example> {
    let mut console = false;
    let mut found: Vec<Example> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            console = line == "```console";
            continue;
        }
        if !console {
            continue;
        }
        if let Some(shown) = line.strip_prefix("$ ") {
            let (command, comment) = shown.split_once(" #").unwrap_or((shown, ""));
            let status = comment
                .trim()
                .strip_prefix("exits with status ")
                .map_or(0, |n| n.parse().expect("a status number"));
            found.push(Example {
                place: format!("{}:{}", page.display(), i + 1),
                command: command.trim().to_string(),
                status,
                output: Vec::new(),
            });
        } else if let Some(example) = found.last_mut() {
            example.output.push(line.to_string());
        }
    }
    found
}

/// `line` with what varies from run to run masked: dates and times (`2026-11-25 16:37`,
/// `2026-11-25T16:37:02Z`) become `DATE`.
fn masked(line: &str) -> String {
    let shape = |s: &[u8], pattern: &[u8]| {
        s.len() >= pattern.len()
            && pattern.iter().zip(s).all(|(p, c)| match p {
                b'9' => c.is_ascii_digit(),
                _ => p == c,
            })
    };
    let bytes = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let date = [&b"9999-99-99T99:99:99Z"[..], b"9999-99-99 99:99"]
            .into_iter()
            .find(|p| shape(rest, p));
        if let Some(pattern) = date {
            out.push_str("DATE");
            i += pattern.len();
        } else {
            let c = line[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Whether `actual` is what `shown` shows: line by line, after masking, where a line `…`
/// alone stands for any number of lines and a `…` within a line for any text there.
fn shows(shown: &[String], actual: &[String]) -> bool {
    let Some((first, rest)) = shown.split_first() else {
        return actual.is_empty();
    };
    if first.trim() == "…" {
        return (0..=actual.len()).any(|skip| shows(rest, &actual[skip..]));
    }
    let Some((line, others)) = actual.split_first() else {
        return false;
    };
    line_shows(&masked(first.trim_end()), &masked(line.trim_end())) && shows(rest, others)
}

/// Whether `line` is `shown`, each `…` in it standing for any text.
fn line_shows(shown: &str, line: &str) -> bool {
    let mut parts = shown.split('…');
    let head = parts.next().unwrap_or_default();
    let Some(mut rest) = line.strip_prefix(head) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (n, part) in parts.iter().enumerate() {
        if n + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Runs `command` through the shell with the built binary first on the path, in the profile
/// directory `home`, with no input; standard output and error together, and the exit status.
fn run(command: &str, home: &Path) -> (Vec<String>, Option<i32>) {
    let binary = Path::new(env!("CARGO_BIN_EXE_tictactoe"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .env("PATH", path)
        .env("TICTACTOE_HOME", home)
        .env("RUST_BACKTRACE", "0")
        // Help is shown as a terminal 80 columns wide prints it.
        .env("COLUMNS", "80")
        .env_remove("NO_COLOR")
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the shell starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > Duration::from_mins(1) {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let text = reader.join().unwrap().unwrap_or_default();
    (text.lines().map(str::to_string).collect(), status)
}

#[test]
fn every_example_the_readme_and_the_guide_show_prints_what_they_show() {
    let mut wrong = Vec::new();
    let mut ran = 0;
    for page in documents() {
        let text = fs::read_to_string(&page).unwrap();
        let examples = examples(&page, &text);
        if examples.is_empty() {
            continue;
        }
        // One profile a page, fresh: a page's examples build on each other, in order.
        let stem = page.file_stem().unwrap().to_string_lossy();
        let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("docs-{stem}"));
        fs::remove_dir_all(&home).ok();
        fs::create_dir_all(&home).unwrap();
        for example in examples {
            // The reader's way to start again from an empty profile.
            if example.command.starts_with("export TICTACTOE_HOME=") {
                fs::remove_dir_all(&home).ok();
                fs::create_dir_all(&home).unwrap();
                continue;
            }
            ran += 1;
            let (actual, status) = run(&example.command, &home);
            if status != Some(example.status) || !shows(&example.output, &actual) {
                wrong.push(format!(
                    "{}: $ {}\nexit status {status:?} (shown: {}); printed:\n{}\nshown:\n{}",
                    example.place,
                    example.command,
                    example.status,
                    actual.join("\n"),
                    example.output.join("\n"),
                ));
            }
        }
    }
    assert!(ran >= 10, "only {ran} examples found");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn an_example_matches_with_dates_masked_and_ellipses_standing_for_what_varies() {
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    let shown = lines("first\n…\n1  2026-11-25 16:37  won\n{\"a\":1,…}");
    let actual = lines("first\nany\nthing\n1  2027-01-02 03:04  won\n{\"a\":1,\"b\":2}");
    assert!(shows(&shown, &actual));
    assert!(!shows(
        &shown,
        &lines("first\n1  2027-01-02 03:04  lost\n{\"a\":1}")
    ));
    assert!(!shows(&lines("one"), &lines("one\ntwo")));
    assert!(shows(&lines("one\n…"), &lines("one\ntwo")));
}
