"""The web layer, one module per area: campaign, orders, reports (and their forms)."""
