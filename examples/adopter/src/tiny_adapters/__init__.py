"""A deliberately small adapter set: canonical history -> OpenAI Chat Completions request body."""
