"""What several features share: languages and the message mechanism, the clock,
leases, pacing, fan-out."""
