"""Running paperclub as a service: the operations listener (`/healthz`, `/readyz`,
`/metrics`), the metrics themselves, JSON logs and database backups."""
