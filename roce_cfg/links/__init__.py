"""Links between switches: inferred from their configs (infer) and their ends (ends)."""
