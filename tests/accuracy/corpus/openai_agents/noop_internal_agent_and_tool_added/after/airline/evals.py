"""Offline evaluation of triage transcripts; never served to customers."""

from __future__ import annotations

from agents import Agent, function_tool


@function_tool
def score_transcript(transcript: str, rubric: str) -> float:
    """Score a transcript against the rubric (0..1)."""
    return 0.0


_grader = Agent(
    name="Transcript Grader",
    instructions="Grade the transcript strictly against the rubric.",
    tools=[score_transcript],
    model="o3",
)
