# Stand-in for caddy:2 where Docker Hub cannot be reached (scripts/docker/base-images.ts): Debian's
# Caddy laid out as the official image is (config in /etc/caddy/Caddyfile, state in /data and
# /config), with wget for health checks as the official image's busybox has.
FROM ads-standin/debian:bookworm
RUN apt-get update && apt-get install -y --no-install-recommends caddy wget ca-certificates && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /config/caddy /data/caddy /srv \
    && printf ':80\nrespond "Caddy works"\n' > /etc/caddy/Caddyfile
ENV XDG_CONFIG_HOME=/config \
    XDG_DATA_HOME=/data
VOLUME ["/config", "/data"]
EXPOSE 80 443 2019
WORKDIR /srv
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
