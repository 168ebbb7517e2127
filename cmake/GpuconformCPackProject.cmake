# SPDX-License-Identifier: Apache-2.0
# CPACK_PROJECT_CONFIG_FILE: read by cpack for each generator, when the packages are made.
# The version comes from `git describe` now (cmake/GpuconformVersion.cmake), not from the
# configure run, which may be several commits old.
include("${CPACK_GPUCONFORM_SOURCE_DIR}/cmake/GpuconformVersion.cmake")
gpuconform_package_version(_gpuconform_version "${CPACK_GPUCONFORM_SOURCE_DIR}" "${CPACK_GPUCONFORM_PROJECT_VERSION}")
set(CPACK_PACKAGE_VERSION "${_gpuconform_version}")
set(CPACK_PACKAGE_FILE_NAME "gpuconform-${_gpuconform_version}-Linux")
if(CPACK_GENERATOR STREQUAL "DEB")
  # Each component's description (CPACK_DEBIAN_<COMPONENT>_DESCRIPTION) starts with its own
  # synopsis; CPack would put the shared summary in front of it.
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
endif()
