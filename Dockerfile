# The realtime server, `msgc-realtime`, alone: built optimized with the Swift runtime linked in,
# stripped, on Debian's libcrypto (the only shared library it needs beyond glibc). The image
# holds no msgc: pipelines build and run msgc where their sources are (README.md). The server
# makes no outgoing connection (Apple's root is built in, for the chain of each request), so
# the image needs no CA certificates.
#
#   docker build -t msgc-realtime .
#   docker run -p 8080:8080 -v /srv/realtime:/srv/realtime:ro \
#       -e MSGC_KEY_FILE=/srv/realtime/AuthKey.p8 -e MSGC_KEY_ID=… -e MSGC_ISSUER_ID=… \
#       msgc-realtime --app-apple-id 1234567890
#
# Mount the snapshot's folder, not the file: a snapshot renamed over the old one is seen only
# through its folder. `docker kill --signal HUP` reloads; `docker stop` (SIGTERM) answers the
# requests in flight and ends with 0.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install-dependencies.sh \
    && scripts/build-release.sh msgc-realtime \
    && strip -o /msgc-realtime .build/release/msgc-realtime

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libssl3 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /msgc-realtime /usr/local/bin/msgc-realtime
USER nobody
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["msgc-realtime", "serve", "--snapshot", "/srv/realtime/production.json", "--host", "0.0.0.0", "--port", "8080", "--shutdown-delay", "10s"]
