// Placeholder: replaced when the History target lands.
