// Placeholder: replaced when the HistoryTests tests land.
