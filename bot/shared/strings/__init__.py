"""Message keys no single feature owns: errors, refusals, reasons, command names."""
