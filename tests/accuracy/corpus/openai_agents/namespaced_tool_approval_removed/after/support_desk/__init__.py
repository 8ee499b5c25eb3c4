"""Support desk agent whose CRM and billing tools are loaded on demand through tool search."""
