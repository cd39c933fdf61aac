"""Form pieces the tables app's pages share: a range of whole days."""

from __future__ import annotations

from typing import Any

from django import forms

DATE_ERRORS = {"invalid": "Enter a real date as YYYY-MM-DD, such as 2025-03-01."}


def date_field(label: str) -> forms.DateField:
    """An optional day, with a date picker in browsers and a plain message when bad."""
    return forms.DateField(
        required=False,
        label=label,
        error_messages=DATE_ERRORS,
        widget=forms.DateInput(attrs={"type": "date"}),
    )


class DateRangeForm(forms.Form):
    """An optional range of whole days, both ends included, in the site's time zone."""

    start = date_field("From")
    end = date_field("To")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            raise forms.ValidationError(f"The range ends ({end}) before it starts ({start}).")
        return cleaned
