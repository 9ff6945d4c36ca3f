// Placeholder: replaced when the Site target lands.
