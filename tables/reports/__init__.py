"""The staff reports: rake, activity, hand search and the chip audit page, with
their queries and the SVG bar chart."""
