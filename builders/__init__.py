"""builders."""
