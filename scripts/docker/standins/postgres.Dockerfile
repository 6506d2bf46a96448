# Stand-in for postgres:17 where Docker Hub cannot be reached (scripts/docker/base-images.ts): Debian
# trixie's PostgreSQL 17 with the part of the official image's interface compose.yaml uses
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA, pg_isready on PATH).
FROM ads-standin/debian:trixie
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-17 && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql && chmod 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/17/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER postgres
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
