//! The README against the binary: every USI option the engine declares has a row in the
//! README's option table with the same type, default and range (and no row names an
//! option the engine lacks); every subcommand in `hisha --help` has its own section,
//! which describes each of its flags in backticks (`` `--depth N` ``); the engine names
//! itself with the package version, which has a CHANGELOG entry; the shogiarena files the
//! README prints are the ones in `docs/arena/`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// One option as the engine declares it or the README describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct OptionDecl {
    kind: String,
    default: String,
    /// `min..max` for spin, the choices for combo and check, empty for string.
    range: Vec<String>,
}

fn repo_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Runs the binary with `args`, feeding it `input`; returns its stdout.
fn run_hisha(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hisha"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hisha");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write stdin");
    drop(stdin);
    let out = child.wait_with_output().expect("wait for hisha");
    assert!(out.status.success(), "hisha {args:?} failed: {:?}", out.status);
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Parses one `option name N type T default D [min a max b] [var v ...]` line.
fn parse_option_line(line: &str) -> Option<(String, OptionDecl)> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"option") || tokens.get(1) != Some(&"name") {
        return None;
    }
    let type_at = tokens.iter().position(|t| *t == "type")?;
    let name = tokens[2..type_at].join(" ");
    let kind = tokens.get(type_at + 1)?.to_string();
    let mut fields: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut key = "";
    let mut vars = Vec::new();
    for t in &tokens[type_at + 2..] {
        match *t {
            "default" | "min" | "max" => {
                key = t;
                fields.entry(key).or_default();
            }
            "var" => {
                key = "var";
                vars.push(String::new());
            }
            _ if key == "var" => {
                let v = vars.last_mut().expect("var before its value");
                if !v.is_empty() {
                    v.push(' ');
                }
                v.push_str(t);
            }
            _ if !key.is_empty() => fields.entry(key).or_default().push(t.to_string()),
            _ => panic!("unexpected token '{t}' in '{line}'"),
        }
    }
    let field = |k: &str| fields.get(k).map(|v| v.join(" ")).unwrap_or_default();
    let range = match kind.as_str() {
        "spin" => vec![format!("{}..{}", field("min"), field("max"))],
        "combo" => vars,
        "check" => vec!["true".to_string(), "false".to_string()],
        _ => Vec::new(),
    };
    Some((name, OptionDecl { kind, default: field("default"), range }))
}

/// The options the engine declares in answer to `usi`.
fn engine_options() -> BTreeMap<String, OptionDecl> {
    let out = run_hisha(&[], "usi\nquit\n");
    assert!(out.lines().any(|l| l == "usiok"), "no usiok in:\n{out}");
    let mut opts = BTreeMap::new();
    for line in out.lines().filter(|l| l.starts_with("option ")) {
        let (name, decl) = parse_option_line(line).unwrap_or_else(|| panic!("bad option line '{line}'"));
        assert!(opts.insert(name.clone(), decl).is_none(), "option {name} declared twice");
    }
    assert!(!opts.is_empty(), "the engine declared no options");
    opts
}

/// The text between backticks in `cell`, each span once, in order.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(|s| s.to_string()).collect()
}

/// Parses the README's option table (`| option | type | default | range | ...`).
fn readme_options(readme: &str) -> BTreeMap<String, OptionDecl> {
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("| option | type | default | range |"));
    assert!(lines.next().is_some(), "README has no option table");
    let mut opts = BTreeMap::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        if line.starts_with("| ---") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert!(cells.len() >= 6, "option row with fewer than 6 cells: {line}");
        let name = cells[0].trim_matches('`').to_string();
        let kind = cells[1].trim_matches('`').to_string();
        let default = cells[2].trim_matches('`').to_string();
        let spans = code_spans(cells[3]);
        let range = match kind.as_str() {
            "string" | "filename" => Vec::new(),
            "check" => {
                let mut v = spans;
                v.sort();
                v.reverse(); // "true", "false", as the engine side lists them
                v
            }
            _ => spans,
        };
        assert!(!cells[4].is_empty() && !cells[5].is_empty(), "{name}: say what it does and when to change it");
        let decl = OptionDecl { kind, default, range };
        assert!(opts.insert(name.clone(), decl).is_none(), "README lists {name} twice");
    }
    opts
}

#[test]
fn every_declared_option_is_in_the_readme_table_with_its_type_default_and_range() {
    let engine = engine_options();
    let readme = readme_options(&repo_file("README.md"));
    for (name, decl) in &engine {
        let row = readme.get(name).unwrap_or_else(|| panic!("README's option table has no row for {name}"));
        assert_eq!(row, decl, "README row for {name} differs from what the engine declares");
    }
    for name in readme.keys() {
        assert!(engine.contains_key(name), "README lists option {name}, which the engine does not declare");
    }
}

#[test]
fn option_line_parser_reads_every_kind() {
    let (n, d) = parse_option_line("option name USI_Hash type spin default 64 min 1 max 16384").unwrap();
    assert_eq!((n.as_str(), d.kind.as_str(), d.default.as_str()), ("USI_Hash", "spin", "64"));
    assert_eq!(d.range, vec!["1..16384".to_string()]);
    let (n, d) = parse_option_line("option name Rule Name type combo default B var A var B var C D").unwrap();
    assert_eq!(n, "Rule Name");
    assert_eq!(d.range, vec!["A".to_string(), "B".to_string(), "C D".to_string()]);
    let (_, d) = parse_option_line("option name EvalFile type string default <embedded>").unwrap();
    assert_eq!((d.default.as_str(), d.range.len()), ("<embedded>", 0));
    assert!(parse_option_line("id name Hisha").is_none());
}

#[test]
fn readme_table_parser_catches_a_changed_default() {
    let table = "| option | type | default | range | what | when |\n| --- | --- | --- | --- | --- | --- |\n\
                 | `Threads` | spin | `1` | `1..64` | threads | cores |\n";
    let engine = parse_option_line("option name Threads type spin default 1 min 1 max 64").unwrap().1;
    assert_eq!(readme_options(table)["Threads"], engine);
    let drifted = table.replace("`1` | `1..64`", "`2` | `1..64`");
    assert_ne!(readme_options(&drifted)["Threads"], engine);
}

/// The subcommands listed under `Commands:` in `hisha --help`, without `help`.
fn subcommands() -> Vec<String> {
    let help = run_hisha(&["--help"], "");
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect();
    assert!(!names.is_empty(), "no subcommands found in:\n{help}");
    names
}

/// The long flags of the option lines under `Options:` in `hisha <sub> --help` (not the
/// examples after them), without help/version.
fn long_flags(sub: &str) -> Vec<String> {
    let help = run_hisha(&[sub, "--help"], "");
    help.lines()
        .skip_while(|l| !l.starts_with("Options:"))
        .filter(|l| l.starts_with(' ') && l.trim_start().starts_with('-'))
        .flat_map(|l| l.split_whitespace().filter(|t| t.starts_with("--")).take(1))
        .map(|t| t.trim_end_matches(',').to_string())
        .filter(|f| f != "--help" && f != "--version")
        .collect()
}

/// The README text from `### hisha <sub>` to the next heading.
fn readme_section<'a>(readme: &'a str, sub: &str) -> Option<&'a str> {
    let heading = format!("\n### hisha {sub}\n");
    let start = readme.find(&heading)? + heading.len();
    let rest = &readme[start..];
    let end = ["\n## ", "\n### "].iter().filter_map(|h| rest.find(h)).min().unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn every_subcommand_and_flag_is_documented_in_the_readme() {
    let readme = repo_file("README.md");
    assert!(readme.contains("\n### hisha\n"), "README has no '### hisha' section (the engine without a subcommand)");
    for sub in subcommands() {
        let section = readme_section(&readme, &sub).unwrap_or_else(|| panic!("README has no '### hisha {sub}' section"));
        assert!(section.contains(&format!("hisha {sub}")), "the {sub} section shows no example");
        for flag in long_flags(&sub) {
            let described = format!("`{flag}");
            assert!(section.contains(&described), "README's '### hisha {sub}' section does not describe {flag} (as {described}...`)");
        }
    }
}

#[test]
fn the_engine_names_itself_with_the_package_version_and_the_changelog_has_it() {
    let version = env!("CARGO_PKG_VERSION");
    let usi = run_hisha(&[], "usi\nquit\n");
    assert_eq!(usi.lines().next(), Some(format!("id name Hisha {version}").as_str()));
    assert_eq!(run_hisha(&["--version"], "").trim(), format!("hisha {version}"));
    let changelog = repo_file("CHANGELOG.md");
    assert!(
        changelog.lines().any(|l| l.starts_with(&format!("## [{version}]"))),
        "CHANGELOG.md has no '## [{version}]' section for the version in Cargo.toml"
    );
}

#[test]
fn the_readme_prints_the_arena_files_as_they_are() {
    let readme = repo_file("README.md");
    for file in ["tournament.yaml", "hisha.yaml", "fairy-stockfish.yaml"] {
        let text = repo_file(&format!("docs/arena/{file}"));
        let body: String = text
            .lines()
            .skip_while(|l| l.starts_with('#') || l.trim().is_empty())
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(readme.contains(&format!("```yaml\n{body}```")), "README does not print docs/arena/{file} as it is");
    }
}
