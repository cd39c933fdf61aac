"""Form pieces the tables app's pages share: a range of whole days."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

# The days a range may name. Pages add a day to the end of a range and take
# midnight in the site's time zone, which overflows near the calendar's ends
# (9999-12-31, 0001-01-01); no hand was played before Cardroom existed, and
# the activity report works through every day of its range.
FIRST_DAY = datetime.date(2000, 1, 1)
LAST_DAY = datetime.date(2099, 12, 31)
DAY_OUT_OF_RANGE = f"Enter a date from {FIRST_DAY} to {LAST_DAY}."
DATE_ERRORS = {"invalid": "Enter a real date as YYYY-MM-DD, such as 2025-03-01."}

# The largest id a database row can have (a signed 64-bit integer).
MAX_ID = 2**63 - 1


def date_field(label: str) -> forms.DateField:
    """An optional day, with a date picker in browsers and a plain message when bad."""
    return forms.DateField(
        required=False,
        label=label,
        error_messages=DATE_ERRORS,
        validators=[
            MinValueValidator(FIRST_DAY, message=DAY_OUT_OF_RANGE),
            MaxValueValidator(LAST_DAY, message=DAY_OUT_OF_RANGE),
        ],
        widget=forms.DateInput(
            attrs={"type": "date", "min": FIRST_DAY.isoformat(), "max": LAST_DAY.isoformat()}
        ),
    )


class DateRangeForm(forms.Form):
    """An optional range of whole days, both ends included, in the site's time zone."""

    start = date_field("From")
    end = date_field("To")

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, which the stubs allow to be None
        cleaned = self.cleaned_data
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            raise forms.ValidationError(f"The range ends ({end}) before it starts ({start}).")
        return cleaned
