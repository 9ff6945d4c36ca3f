// Placeholder: replaced when this target lands.
