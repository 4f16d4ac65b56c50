"""The column-mapping form of the rating import page: the shape of the input only (the
mapping's own rules are checked by ``mapping_from_dict``, the file by the parser)."""

from __future__ import annotations

from typing import Any

from django import forms

from annotations.importing.parsers.mapped.mapping import FORMATS

_TEXT = {"autocomplete": "off", "spellcheck": "false"}


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


#: the mapping's list settings, each a comma-separated field of the form
_LISTS = ("metadata", "skip_values", "columns", "one_value", "optional")


def _named_lists(text: str, example: str) -> dict[str, list[str]]:
    """``name = a, b; other = c`` as ``{"name": ["a", "b"], "other": ["c"]}``; a name
    given twice gathers its values (it kept only the last entry's)."""
    named: dict[str, list[str]] = {}
    for entry in text.split(";"):
        if not entry.strip():
            continue
        name, equals, values = entry.partition("=")
        if not equals or not name.strip() or not _split(values):
            raise forms.ValidationError(
                f"'{entry.strip()[:60]}' is not name = value(s), e.g. {example}."
            )
        kept = named.setdefault(name.strip(), [])
        kept += [v for v in _split(values) if v not in kept]
    return named


def _named_lists_text(named: dict[str, list[str]]) -> str:
    return "; ".join(f"{name} = {', '.join(values)}" for name, values in named.items())


def criteria_from_text(text: str) -> list[dict[str, Any]]:
    """Criteria written one per line: ``name: score pattern[, ranks][, scale]
    [, rank=pattern][, checks=pattern][, coverage=pattern][, levels=1 2 3 4 5]``."""
    criteria = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, rest = line.partition(":")
        parts = _split(rest)
        if not sep or not parts:
            raise forms.ValidationError(
                f"Line {n}: write 'name: score pattern', e.g. 'fluency: flu{{i}}'."
            )
        criterion: dict[str, Any] = {"name": name.strip(), "score": parts[0]}
        for flag in parts[1:]:
            key, eq, pattern = flag.partition("=")
            if eq and key.strip() in ("checks", "coverage", "rank") and pattern.strip():
                criterion[key.strip()] = pattern.strip()
            elif eq and key.strip() == "levels" and pattern.strip():
                criterion["levels"] = ",".join(pattern.split())
            elif flag == "ranks":
                criterion["ranks"] = True
            elif flag in ("likert", "magnitude", "slider"):
                criterion["scale"] = flag
            else:
                raise forms.ValidationError(
                    f"Line {n}: '{flag}' is neither 'ranks', a scale (likert, magnitude, "
                    "slider), 'rank=', 'checks=', 'coverage=pattern' nor 'levels=1 2 3'."
                )
        criteria.append(criterion)
    return criteria


def criteria_to_text(criteria: list[dict[str, Any]]) -> str:
    lines = []
    for c in criteria:
        flags = (["ranks"] if c.get("ranks") else []) + ([c["scale"]] if c.get("scale") else [])
        flags += [f"{key}={c[key]}" for key in ("rank", "checks", "coverage") if c.get(key)]
        if c.get("levels"):
            flags.append("levels=" + " ".join(str(v) for v in c["levels"]))
        lines.append(", ".join([f"{c['name']}: {c['score']}", *flags]))
    return "\n".join(lines)


class MappingForm(forms.Form):
    """Which column means what; ``initial_from`` fills it from a mapping's JSON form."""

    file = forms.FileField(required=False, help_text="CSV, TSV or JSONL.")
    format = forms.ChoiceField(choices=[(f, f.upper()) for f in FORMATS], initial="csv")
    columns = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Columns of a file without a header line",
        help_text="Comma-separated names, in order (Appraise's CSV exports have no header).",
    )
    worker = forms.CharField(
        required=False, widget=forms.TextInput(_TEXT), help_text="Blank: one 'aggregate' worker."
    )
    item = forms.CharField(widget=forms.TextInput(_TEXT))
    input = forms.CharField(required=False, widget=forms.TextInput(_TEXT))
    unit = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="Task id: rows of one unit share a task.",
    )
    language = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="The outputs' language per row (a BCP 47 code such as de), if the file has one.",
    )
    input_language = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Input language",
        help_text="The input's language per row (a translation's source), if the file has "
        "one; left empty: the outputs' language.",
    )
    slots = forms.IntegerField(
        min_value=0, max_value=10, initial=0, help_text="Outputs per row, 1-10; 0 = as the header."
    )
    first = forms.TypedChoiceField(
        choices=[(1, "1 (team1, team2, ...)"), (0, "0 (team0, team1, ...)")],
        coerce=int,
        initial=1,
        label="Numbering from",
    )
    system = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="Pattern with {i}, e.g. team{i}; one column (team) for one output per row.",
    )
    system_value = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Constant system",
        help_text="Instead of a system column: the one system of every row (one output per row).",
    )
    output = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="Pattern with {i}, e.g. ref{i}; one column (ref) for one output per row.",
    )
    criteria = forms.CharField(
        widget=forms.Textarea({"rows": 3, **_TEXT}),
        help_text=(
            "One per line: name: score pattern[, ranks][, likert|magnitude|slider]"
            "[, rank=pattern][, checks=content-check pattern][, coverage=pattern]"
            "[, levels=1 2 3 4 5 (Likert levels of a new criterion)]; name * "
            "takes the name "
            "of the definition column."
        ),
    )
    started_at = forms.CharField(required=False, widget=forms.TextInput(_TEXT))
    submitted_at = forms.CharField(required=False, widget=forms.TextInput(_TEXT))
    time_format = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="iso, epoch or a strptime pattern such as %m/%d/%Y %H:%M:%S.",
    )
    metadata = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="Columns kept with each judgement, comma-separated.",
    )
    definition = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="A column holding the criterion's definition (humaneval exports: _criterion).",
    )
    metadata_json = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Metadata (JSON) column",
        help_text="A column holding a JSON object kept with each judgement (_metadata).",
    )
    skip_values = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        help_text="Score values meaning 'not judged' (the row is skipped), e.g. -1.",
    )
    one_value = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="One value a file",
        help_text="Columns that must hold one value on every row where the file has them "
        "(comma-separated), e.g. srclang, trglang: one language pair a file.",
    )
    optional = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Columns a file may lack",
        help_text="The language or metadata columns read as empty where a file lacks them "
        "(comma-separated), e.g. trglang.",
    )
    aliases = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Other column names",
        help_text="A column's other names, read where the file lacks it: name = other, "
        "another; entries separated by semicolons, e.g. judgeId = judgeID.",
    )
    skip_rows = forms.CharField(
        required=False,
        widget=forms.TextInput(_TEXT),
        label="Rows to leave out",
        help_text="Rows whose column holds one of these values are left out and counted: "
        "column = value, another; entries separated by semicolons, e.g. "
        "AssignmentStatus = Rejected.",
    )
    formula_quoted = forms.BooleanField(
        required=False,
        label="Cells quoted as humaneval's CSV export writes them",
        help_text="The apostrophe before a text starting with = + - @ is taken off.",
    )
    experts = forms.BooleanField(required=False, label="The judges are experts")
    save_as = forms.SlugField(required=False, max_length=64, label="Save as preset named")

    def clean_criteria(self) -> list[dict[str, Any]]:
        return criteria_from_text(self.cleaned_data["criteria"])

    def clean_aliases(self) -> dict[str, list[str]]:
        """``judgeId = judgeID; x = y, z`` as ``{"judgeId": ["judgeID"], "x": ["y", "z"]}``."""
        return _named_lists(self.cleaned_data.get("aliases") or "", "judgeId = judgeID")

    def clean_skip_rows(self) -> dict[str, list[str]]:
        """``AssignmentStatus = Rejected`` as ``{"AssignmentStatus": ["Rejected"]}``."""
        return _named_lists(self.cleaned_data.get("skip_rows") or "", "AssignmentStatus = Rejected")

    def mapping_dict(self) -> dict[str, Any]:
        """The mapping in its JSON form (call after ``is_valid``)."""
        d = self.cleaned_data
        keys: tuple[str, ...] = ("format", "worker", "item", "input", "unit", "language")
        keys += ("input_language", "system")
        keys += ("output", "started_at", "submitted_at", "time_format", "definition")
        keys += ("metadata_json", "system_value")
        return {
            **{k: d.get(k) or "" for k in keys},
            "slots": d["slots"],
            "first": d["first"],
            "criteria": d["criteria"],
            **{key: _split(d.get(key) or "") for key in _LISTS},
            "aliases": d.get("aliases") or {},
            "skip_rows": d.get("skip_rows") or {},
            "formula_quoted": bool(d.get("formula_quoted")),
        }

    @staticmethod
    def initial_from(mapping: dict[str, Any]) -> dict[str, Any]:
        named = ("aliases", "skip_rows")
        return {
            **{k: v for k, v in mapping.items() if k not in ("criteria", *_LISTS, *named)},
            **{key: ", ".join(mapping.get(key, [])) for key in _LISTS},
            **{key: _named_lists_text(mapping.get(key, {})) for key in named},
            "criteria": criteria_to_text(mapping.get("criteria", [])),
        }
